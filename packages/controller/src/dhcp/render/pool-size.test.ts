// The pool size the status reports: what oooi-dhcp can hand out, counted on ranges.
import type { DhcpConfig } from '@oooi/api';
import { poolSizeOf } from './pool-size';

const config = (pool: [string, string], excluded?: string[], gateway = '10.0.0.1', serverIP = '10.0.0.2') =>
  ({
    version: 1,
    network: { cidr: '10.0.0.0/8', gateway, serverIP },
    pool: { start: pool[0], end: pool[1] },
    leaseTimeSeconds: 3600,
    declineQuarantineSeconds: 300,
    options: { dnsServers: [] },
    ...(excluded ? { excluded } : {}),
  }) as DhcpConfig;

describe('poolSizeOf', () => {
  test.each([
    { name: 'a pool clear of the statics', input: config(['10.0.0.10', '10.0.0.19']), want: 10 },
    { name: 'gateway and server inside the pool', input: config(['10.0.0.1', '10.0.0.10']), want: 8 },
    {
      name: 'an address, a range and a CIDR',
      input: config(['10.0.0.10', '10.0.0.99'], ['10.0.0.10', '10.0.0.20-10.0.0.29', '10.0.0.32/28']),
      want: 90 - 1 - 10 - 16,
    },
    {
      name: 'overlapping and touching exclusions count once',
      input: config(['10.0.0.10', '10.0.0.99'], ['10.0.0.20-10.0.0.40', '10.0.0.30-10.0.0.50', '10.0.0.51']),
      want: 90 - 32,
    },
    {
      name: 'exclusions reaching past both ends',
      input: config(['10.0.0.10', '10.0.0.19'], ['10.0.0.0-10.0.0.12', '10.0.0.18-10.0.0.255']),
      want: 5,
    },
    { name: 'everything excluded', input: config(['10.0.0.10', '10.0.0.19'], ['10.0.0.0/24']), want: 0 },
    {
      name: 'a /8 pool without a walk over 16M addresses',
      input: config(['10.0.1.0', '10.255.255.254'], ['10.128.0.0/9']),
      want: 0x7fffff - 0xff,
    },
  ])('$name', ({ input, want }) => expect(poolSizeOf(input)).toBe(want));
});
