// A namespace the rig deletes leaves the network at once, even while a process still runs inside it (as a
// container being reaped or a probe can): its links are deleted before its name, as a CNI plugin's DEL removes a
// pod's interface. Before, `ip netns del` alone left such a namespace alive with its address, and a replaced pod
// answered ARP for its address beside its successor (the sandbox's proxy rollouts, captured on the VLAN bridge).
import { nonLoopbackLinks, openNetScope, rigBin, runDir, waitFor, type NetScope } from '@oooi/rig';
import { rmSync } from 'node:fs';

jest.setTimeout(60_000);

test('nonLoopbackLinks reads `ip -o link show` (pure)', () => {
  const out = [
    '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
    '7: net1@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\\    link/ether 2a:1b:00:00:00:01 brd ff:ff:ff:ff:ff:ff link-netns oooi-x-br-1a2b',
    '9: eth0@if3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP',
    '',
  ].join('\n');
  expect(nonLoopbackLinks(out)).toEqual(['net1', 'eth0']);
  expect(nonLoopbackLinks('')).toEqual([]);
});

describe('deleteNamespace with a process still inside', () => {
  const owner = `netns-delete-${process.pid}`;
  let scope: NetScope;
  beforeAll(() => (scope = openNetScope(owner)));
  afterAll(async () => {
    await scope.dispose();
    rmSync(runDir(owner), { recursive: true, force: true });
  });

  it('takes its address off the network at once', async () => {
    const net = await scope.createNetwork({ label: 'del', kind: 'vlan' });
    const [gone, peer] = [await scope.createNamespace('gone'), await scope.createNamespace('peer')];
    await net.attach(gone, { address: '198.51.100.61/24' });
    await net.attach(peer, { address: '198.51.100.62/24' });
    const arping = await rigBin('arping');
    // ARP is what a stale namespace answers on the bridge (arping exits 0 on a reply)
    const ping = () => peer.exec([arping, '-c', '1', '-w', '1', '-I', 'eth0', '198.51.100.61']);
    await waitFor('the address answering before the delete', async () => (await ping()).code === 0, {
      timeoutMs: 15_000,
      everyMs: 200,
    });
    const lingering = gone.spawn(['sleep', '60'], { label: 'lingering' });
    try {
      await scope.deleteNamespace(gone);
      expect(lingering.alive()).toBe(true); // the namespace itself lives on with it
      const after = await ping();
      expect({ code: after.code, replies: /Received [1-9]/.test(after.stdout) }).toEqual({
        code: 1,
        replies: false,
      });
    } finally {
      await lingering.stop();
    }
  });
});
