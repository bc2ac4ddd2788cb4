import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { runTrackFile } from './track-file';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'oooi-xds-track-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const log = pino({ level: 'silent' });
const read = (p: string) => readFileSync(p, 'utf8');
const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

test('the track file says 1 at start, follows the check (0 while Envoy serves), and 1 again on stop', async () => {
  const path = join(dir, 'envoy-serving');
  let serving = false;
  const stop = new AbortController();
  const track = runTrackFile({ path, serving: () => serving, log, intervalMs: 10 }, stop.signal);
  expect(read(path)).toBe('1\n');
  expect(track.serving()).toBe(false);
  serving = true;
  await until(() => read(path) === '0\n');
  expect(track.serving()).toBe(true);
  serving = false;
  await until(() => read(path) === '1\n');
  expect(track.serving()).toBe(false);
  serving = true;
  await until(() => read(path) === '0\n');
  stop.abort();
  expect(read(path)).toBe('1\n');
  expect(track.serving()).toBe(false);
  expect(readdirSync(dir)).toEqual(['envoy-serving']);
});

test('a check that throws or rejects counts as not serving', async () => {
  const path = join(dir, 'envoy-serving');
  let mode: 'ok' | 'throw' = 'ok';
  const stop = new AbortController();
  runTrackFile(
    {
      path,
      serving: () => (mode === 'ok' ? Promise.resolve(true) : Promise.reject(new Error('admin down'))),
      log,
      intervalMs: 10,
    },
    stop.signal,
  );
  await until(() => read(path) === '0\n');
  mode = 'throw';
  await until(() => read(path) === '1\n');
  stop.abort();
});
