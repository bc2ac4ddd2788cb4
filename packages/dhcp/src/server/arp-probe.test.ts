// The ARP table as /proc/net/arp prints it: only resolved entries (ATF_COM, a MAC known) say an address is in use.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArpProber, parseArpTable } from './arp-probe';
import { ip } from '../testing/packets';

const table = `IP address       HW type     Flags       HW address            Mask     Device
198.51.100.100   0x1         0x2         AA:bb:cc:00:00:01     *        net1
198.51.100.101   0x1         0x0         00:00:00:00:00:00     *        net1
198.51.100.102   0x1         0x6         aa:bb:cc:00:00:02     *        net1
198.51.100.103   0x1         0x2         00:00:00:00:00:00     *        net1
garbage line
`;

test('resolved entries only, MACs in lower case', () => {
  expect([...parseArpTable(table)]).toEqual([
    [ip('198.51.100.100'), 'aa:bb:cc:00:00:01'],
    [ip('198.51.100.102'), 'aa:bb:cc:00:00:02'],
  ]);
});

test('an empty table (the header only)', () => {
  expect(parseArpTable(table.split('\n')[0]!).size).toBe(0);
});

describe('ArpProber over loopback, its table file replaced by one the test writes', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-arp-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('an entry for the address: in use by its MAC; none within the timeout: free; no table: failed', async () => {
    const file = join(dir, 'arp');
    await writeFile(
      file,
      `${table}127.0.0.8        0x1         0x2         aa:bb:cc:00:00:08     *        lo\n`,
    );
    const p = new ArpProber({ source: '127.0.0.1', timeoutMs: 60, everyMs: 5, arpTable: file });
    const missing = new ArpProber({ source: '127.0.0.1', timeoutMs: 60, arpTable: join(dir, 'none') });
    try {
      expect(
        await Promise.all([
          p.probe(ip('127.0.0.8')),
          p.probe(ip('127.0.0.9')),
          missing.probe(ip('127.0.0.9')),
        ]),
      ).toEqual([
        { kind: 'in_use', mac: 'aa:bb:cc:00:00:08' },
        { kind: 'free' },
        { kind: 'failed', why: expect.stringContaining('ENOENT') },
      ]);
    } finally {
      await p.close();
      await missing.close();
    }
  });
});
