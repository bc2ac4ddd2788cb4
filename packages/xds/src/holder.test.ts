import type { NetworkInterfaceInfo } from 'node:os';
import { holdsAddress } from './holder';

const v4 = (address: string): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '02:00:00:00:00:01',
  internal: false,
  cidr: `${address}/24`,
});

describe('holdsAddress', () => {
  const pod = {
    lo: [{ ...v4('127.0.0.1'), internal: true }],
    eth0: [v4('203.0.113.10')],
    net1: [v4('198.51.100.5')],
  };
  test.each([
    {
      name: 'serverIP on net1 (keepalived added it)',
      interfaces: { ...pod, net1: [v4('198.51.100.5'), v4('198.51.100.4')] },
      want: true,
    },
    { name: 'only the replica address', interfaces: pod, want: false },
    { name: 'no serverIP known yet', interfaces: pod, ip: '', want: false },
    { name: 'an interface with no address list', interfaces: { ...pod, net2: undefined }, want: false },
  ])('$name', ({ interfaces, ip, want }) =>
    expect(holdsAddress(interfaces, ip ?? '198.51.100.4')).toBe(want),
  );
});
