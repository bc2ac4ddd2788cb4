import type { NetworkInterfaceInfo } from 'node:os';
import { waitForInterface } from './interface-wait';

const addr = (address: string): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '02:00:00:00:00:01',
  internal: false,
  cidr: `${address}/24`,
});

interface Case {
  readonly name: string;
  /** What each look at the interface list returns, in order (the last one repeats). */
  readonly looks: NodeJS.Dict<NetworkInterfaceInfo[]>[];
  readonly wantError?: string;
  readonly wantSleeps: number;
}

test.each<Case>([
  { name: 'ready at once: no wait', looks: [{ net1: [addr('198.51.100.2')] }], wantSleeps: 0 },
  {
    name: 'comes up after two looks (Multus, carrier)',
    looks: [{}, { net1: [] }, { net1: [addr('198.51.100.2')] }],
    wantSleeps: 2,
  },
  {
    name: 'never up: the bound runs out, the interface named',
    looks: [{ eth0: [addr('203.0.113.10')] }],
    wantError: 'interface net1 does not exist or is not up (waited 1 s)',
    wantSleeps: 4,
  },
  {
    name: 'up with another address: the serverIP named',
    looks: [{ net1: [addr('198.51.100.9')] }],
    wantError: 'interface net1 does not hold network.serverIP 198.51.100.2',
    wantSleeps: 4,
  },
])('$name', async ({ looks, wantError, wantSleeps }) => {
  let look = 0;
  let sleeps = 0;
  const waits: string[] = [];
  const run = waitForInterface('net1', '198.51.100.2', {
    list: () => looks[Math.min(look++, looks.length - 1)]!,
    sleep: () => {
      sleeps++;
      return Promise.resolve();
    },
    timeoutMs: 1000,
    everyMs: 250,
    onWait: (why) => waits.push(why),
  });
  if (wantError) await expect(run).rejects.toThrow(wantError);
  else await expect(run).resolves.toBeUndefined();
  expect(sleeps).toBe(wantSleeps);
  expect(waits).toHaveLength(wantSleeps > 0 ? 1 : 0);
});
