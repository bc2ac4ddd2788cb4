import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFileName, readAtomicDir, writeAtomicDir } from './atomic-dir';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string): string => readFileSync(join(dir, name), 'utf8');

describe('writeAtomicDir', () => {
  test('each visible name is a symlink through ..data, which names one hidden directory', async () => {
    await writeAtomicDir(dir, { Corefile: 'a', 'vlan.zone': 'z1' });
    expect(read('Corefile')).toBe('a');
    expect(readlinkSync(join(dir, 'Corefile'))).toBe('..data/Corefile');
    const hidden = readdirSync(dir).filter((n) => n.startsWith('..') && n !== '..data');
    expect(hidden).toEqual([readlinkSync(join(dir, '..data'))]);
  });

  test('a second set replaces the first: names it lacks go, the old hidden directory goes', async () => {
    await writeAtomicDir(dir, { Corefile: 'a', 'vlan.zone': 'z1' });
    const first = readlinkSync(join(dir, '..data'));
    await writeAtomicDir(dir, { Corefile: 'b', 'pod-network.zone': 'z2' });
    expect(read('Corefile')).toBe('b');
    expect(read('pod-network.zone')).toBe('z2');
    expect(readdirSync(dir).sort()).toEqual(
      ['..data', readlinkSync(join(dir, '..data')), 'Corefile', 'pod-network.zone'].sort(),
    );
    expect(readdirSync(dir)).not.toContain(first);
  });

  test('a reader holding the old ..data sees the old set whole, the new one sees the new set whole', async () => {
    await writeAtomicDir(dir, { Corefile: 'old', 'vlan.zone': 'old' });
    const oldDir = join(dir, readlinkSync(join(dir, '..data')));
    const before = readdirSync(oldDir).map((n) => readFileSync(join(oldDir, n), 'utf8'));
    await writeAtomicDir(dir, { Corefile: 'new', 'vlan.zone': 'new' });
    expect(before).toEqual(['old', 'old']);
    expect([read('Corefile'), read('vlan.zone')]).toEqual(['new', 'new']);
  });

  test.each([
    { name: 'a path', key: 'a/b', wantError: 'not a flat file name' },
    { name: 'the data link', key: '..data', wantError: 'reserved' },
    { name: 'a hidden directory name', key: '..2026', wantError: 'reserved' },
  ])('refuses $name as a key, writing nothing', async ({ key, wantError }) => {
    expect(checkFileName(key)).toContain(wantError);
    await expect(writeAtomicDir(dir, { Corefile: 'x', [key]: 'y' })).rejects.toThrow(wantError);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('readAtomicDir', () => {
  test('nothing before the first write; then the set a reader sees, the latest one', async () => {
    expect(await readAtomicDir(dir)).toBeUndefined();
    await writeAtomicDir(dir, { Corefile: 'a', 'vlan.zone': 'z1' });
    await writeAtomicDir(dir, { Corefile: 'b' });
    expect(await readAtomicDir(dir)).toEqual({ Corefile: 'b' });
  });
});
