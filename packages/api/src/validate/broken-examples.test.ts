import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateObject } from './validate-object';

const examples = join(__dirname, '../../../../examples');

describe('the broken examples', () => {
  const expected = parse(readFileSync(join(examples, 'broken/expected.yaml'), 'utf8')) as Record<
    string,
    { path: string; message: string }[]
  >;
  test.each(Object.entries(expected).map(([file, want]) => ({ file, want })))(
    '$file gets exactly its expected errors',
    ({ file, want }) => {
      const r = validateObject(parse(readFileSync(join(examples, 'broken', file), 'utf8')));
      expect(r.ok ? [] : r.errors).toEqual(want);
      expect(want.length).toBeGreaterThan(0);
    },
  );
});
