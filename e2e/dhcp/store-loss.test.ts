// A lost lease store (an emptyDir after the pod was replaced) with no VMI to report the address a client holds:
// dhclient holds a lease and keeps using its address, the server's lease directory is wiped and the server
// restarted, and a new client (udhcpc) asks. The server has no record of the held address, so it would be the
// first one offered; it must not be — the ARP probe before the OFFER finds dhclient answering for it. The
// holder's renewal keeps its address. Real clients in namespaces on the lab's VLAN, no mock.
import { rm } from 'node:fs/promises';
import { e2eEnv, waitFor } from '@oooi/rig';
import { dhclientDaemon, udhcpcOnce, type Daemon } from './clients';
import { labConfig, openDhcpLab, type DhcpLab } from './lab';

// T1 long enough for the wipe, the restart and the new client to come first
const config = labConfig({ leaseTimeSeconds: 600, renewalTimeSeconds: 45, rebindingTimeSeconds: 60 });
let lab: DhcpLab;
let holder: Daemon | undefined;

/** The address of the holder's first EVENT whose hook output is complete (the hook writes it line by line). */
async function addressAt(d: Daemon, event: RegExp, timeoutMs: number): Promise<string> {
  let ip: string | undefined;
  await waitFor(
    `dhclient ${String(event)} with its address`,
    async () => {
      ip = (await d.events()).find((e) => event.test(e.event) && e.vars.ip_address)?.vars.ip_address;
      return ip !== undefined;
    },
    { timeoutMs, everyMs: 200 },
  );
  return ip!;
}

beforeAll(async () => {
  lab = await openDhcpLab(e2eEnv().rig, config);
});
afterAll(async () => {
  await holder?.proc.stop();
  await lab?.dispose();
});

test('after a wiped lease directory a new client is not offered the address a client still holds; its renewal keeps it', async () => {
  await lab.startServer();
  const ns = await lab.client('holder');
  holder = await dhclientDaemon(lab, ns);
  const held = await addressAt(holder, /^BOUND$/, 30_000);
  // the first pool address: what an empty store offers first
  expect(held).toBe('198.51.100.100');
  expect(await ns.addresses('eth0')).toEqual([`${held}/24`]);

  await lab.server!.stop();
  await rm(lab.leaseDir, { recursive: true, force: true });
  await lab.startServer();

  const newcomer = await lab.client('newcomer');
  const bound = (await udhcpcOnce(lab, newcomer)).filter((e) => e.event === 'bound').at(-1);
  expect(bound?.vars.ip).toBeDefined();
  expect(bound?.vars.ip).not.toBe(held);
  expect(await lab.metric('oooi_dhcp_lease_store_recovering')).toBe(1);
  expect(await lab.metric('oooi_dhcp_address_probes_total', 'result="in_use"')).toBeGreaterThanOrEqual(1);
  expect(await lab.metric('oooi_dhcp_probe_held_addresses')).toBe(1);
  expect(lab.server!.log()).toContain('Address in use (answered ARP); not offered');

  // T1: the holder's unicast renewal is ACKed for the same address (and recorded in the new store)
  expect(await addressAt(holder, /^(RENEW|REBIND)$/, 90_000)).toBe(held);
  expect(await ns.addresses('eth0')).toEqual([`${held}/24`]);
});
