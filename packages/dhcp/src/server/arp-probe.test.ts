// The ARP table as /proc/net/arp prints it: only resolved entries (ATF_COM, a MAC known) say an address is in use.
import { parseArpTable } from './arp-probe';
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
