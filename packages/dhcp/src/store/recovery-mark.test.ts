// recovery.json: written when the store is found new or damaged, kept across a restart, replaced when damaged.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECOVERY_FILE, readRecoveryMark, settleRecoveryMark } from './recovery-mark';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-mark-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test.each([
  { name: 'a new store: a new mark', opened: { isNew: true, damaged: false }, want: 'new_store' },
  { name: 'damage found: a new mark', opened: { isNew: false, damaged: true }, want: 'damaged_store' },
])('$name', async ({ opened, want }) => {
  const mark = await settleRecoveryMark(dir, opened, 5000);
  expect(mark).toEqual({ since: 5000, reason: want });
  expect(await readRecoveryMark(dir)).toEqual(mark);
});

test('a kept store keeps the mark it has (a restart inside the window), and has none when none was written', async () => {
  expect(await settleRecoveryMark(dir, { isNew: false, damaged: false }, 1)).toBeUndefined();
  await settleRecoveryMark(dir, { isNew: true, damaged: false }, 5000);
  expect(await settleRecoveryMark(dir, { isNew: false, damaged: false }, 9000)).toEqual({
    since: 5000,
    reason: 'new_store',
  });
});

test('a mark that does not parse is replaced by a loss found now', async () => {
  await writeFile(join(dir, RECOVERY_FILE), '{"since": 12');
  expect(await readRecoveryMark(dir)).toBe('damaged');
  expect(await settleRecoveryMark(dir, { isNew: false, damaged: false }, 7000)).toEqual({
    since: 7000,
    reason: 'damaged_store',
  });
  expect(JSON.parse(await readFile(join(dir, RECOVERY_FILE), 'utf8'))).toEqual({
    since: 7000,
    reason: 'damaged_store',
  });
});

test('a mark that cannot be written (here: the directory is gone) still holds, and the failure is told', async () => {
  const errors: string[] = [];
  const gone = join(dir, 'gone');
  const mark = await settleRecoveryMark(gone, { isNew: true, damaged: false }, 3000, (e) =>
    errors.push((e as NodeJS.ErrnoException).code ?? ''),
  );
  expect(mark).toEqual({ since: 3000, reason: 'new_store' });
  expect(errors).toEqual(['ENOENT']);
});
