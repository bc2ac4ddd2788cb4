import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { translateProxyServer } from '@oooi/envoy';
import { buildSnapshot } from './cache/snapshot';
import { StatusFile } from './status-file';
import { StatusTracker } from './status-tracker';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'oooi-xds-status-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('StatusFile: each poke replaces the file with the current status as JSON, leaving nothing beside it', () => {
  const tracker = new StatusTracker(() => new Date(0));
  const file = new StatusFile(join(dir, 'status.json'), tracker);
  file.poke();
  expect(JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8'))).toEqual(tracker.current());
  const s = buildSnapshot(translateProxyServer({ backends: [] }));
  tracker.served(s);
  file.poke();
  const shown = JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as ReturnType<
    StatusTracker['current']
  >;
  expect(shown.xds.desiredVersion).toBe(s.version);
  expect(shown.configAccepted.reason).toBe('Pending');
  expect(readdirSync(dir)).toEqual(['status.json']);
});
