// A fixture for own-source-map.test.ts: a stack through a dependency (yaml calls our reviver, which throws).
import { parse } from 'yaml';

function reviver(key: unknown, value: unknown): unknown {
  if (key === 'boom') throw new Error('fixture: thrown by our reviver');
  return value;
}

function main(): void {
  parse('boom: 1\n', reviver);
}

main();
