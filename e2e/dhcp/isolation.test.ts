// DHCP serves only its network: requests from the pod network get nothing, whatever giaddr they carry. The
// server's namespace is shaped like its pod (eth0 on the pod network, net1 on the VLAN); a namespace on the pod
// network sends crafted requests (isolation-sender.ts) as a pod would: unicast to the pod's eth0 address, and
// unicast to serverIP routed through that eth0 (the kernel delivers it: weak host). A real VLAN client (dhclient,
// renewing every 4 s) holds a lease throughout and must keep it.
import { join } from 'node:path';
import { e2eEnv, repoRoot, type Netns } from '@oooi/rig';
import { dhclientDaemon, type Daemon } from './clients';
import { labConfig, openDhcpLab, POD_IP, SERVER_IP, type Capture, type DhcpLab } from './lab';
import type { SenderSpec, SentRequest } from './isolation-sender';

/** The giaddr a pod-network sender claims: a VLAN host (no relay), so that a reply to it shows on net1. */
const GIADDR = '198.51.100.129';
const ATTACKER = '203.0.113.30';

let lab: DhcpLab;
let onNet1: Capture;
let attacker: Netns;
let client: Daemon;
let clientIp = '';
let clientMac = '';

beforeAll(async () => {
  lab = await openDhcpLab(e2eEnv().rig, labConfig({ renewalTimeSeconds: 4, rebindingTimeSeconds: 8 }));
  onNet1 = await lab.capture(lab.srv, 'net1');
  await lab.startServer(['--log-level', 'debug']);
  const vlanNs = await lab.client('dhcp-net-vlan');
  clientMac = /link\/ether ([0-9a-f:]{17})/.exec(
    (await vlanNs.exec(['ip', '-o', 'link', 'show', 'eth0'])).stdout,
  )![1]!;
  client = await dhclientDaemon(lab, vlanNs);
  clientIp = (await client.waitEvent(/^BOUND$/)).vars.ip_address!;
  await lab.client('dhcp-net-giaddr', lab.vlan, `${GIADDR}/24`);
  attacker = await lab.client('dhcp-net-pod', lab.pod, `${ATTACKER}/24`);
  // the VLAN through the DHCP pod's eth0, as a pod on the same node could route it
  await attacker.exec(['ip', 'route', 'add', '198.51.100.0/24', 'via', POD_IP, 'dev', 'eth0']);
});
afterAll(async () => {
  await lab?.dispose();
});

/** Sends REQUESTS from the attacker to TARGET; the replies it got. */
async function send(target: string, requests: readonly SentRequest[]): Promise<string[]> {
  const spec: SenderSpec = { target, requests, waitMs: 1500 };
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const r = await attacker.exec([tsx, join(__dirname, 'isolation-sender.ts'), JSON.stringify(spec)], {
    timeoutMs: 30_000,
    cwd: repoRoot,
  });
  const received = /received (\d+)/.exec(r.stdout);
  if (received === null) throw new Error(`isolation-sender failed: ${r.stdout}\n${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.startsWith('reply '));
}

/** The tester's probe: a DHCP exchange claiming to come through a relay at GIADDR. */
const probe = (mac: string, offered: string, renewed: string): SentRequest[] => [
  { type: 'DISCOVER', chaddr: mac, giaddr: GIADDR },
  { type: 'REQUEST', chaddr: mac, giaddr: GIADDR, requested: offered, serverId: SERVER_IP },
  { type: 'REQUEST', chaddr: mac, giaddr: GIADDR, ciaddr: renewed },
];

/** Replies the server sent to the claimed relay. */
const toRelay = () => onNet1.lines().filter((l) => l.includes(`> ${GIADDR}.67`));
const metric = (name: string, label?: string) => lab.metric(name, label);

describe('a pod-network sender gets nothing served', () => {
  test('probe unicast to the pod-network address: no socket takes it; no reply, no lease', async () => {
    const discovers = await metric('oooi_dhcp_packets_received_total', 'type="DISCOVER"');
    const replies = await send(POD_IP, probe('02:00:00:00:aa:01', '198.51.100.101', '198.51.100.110'));
    expect(replies).toEqual([]);
    expect(toRelay()).toEqual([]);
    expect(await metric('oooi_dhcp_packets_received_total', 'type="DISCOVER"')).toBe(discovers);
    expect(await metric('oooi_dhcp_active_leases')).toBe(1);
  });

  test('probe unicast to serverIP through the pod’s eth0: dropped as foreign_source; no reply, no lease', async () => {
    const foreign = await metric('oooi_dhcp_drops_total', 'reason="foreign_source"');
    const replies = await send(SERVER_IP, probe('02:00:00:00:aa:02', '198.51.100.102', '198.51.100.111'));
    expect(replies).toEqual([]);
    expect(toRelay()).toEqual([]);
    expect(await metric('oooi_dhcp_drops_total', 'reason="foreign_source"')).toBe(foreign + 3);
    expect(await metric('oooi_dhcp_active_leases')).toBe(1);
  });

  test('RELEASE and DECLINE of the VLAN client’s lease from the pod network: ignored; the client renews it', async () => {
    const id = `01${clientMac.replace(/:/g, '')}`;
    const forged: SentRequest[] = [
      { type: 'RELEASE', chaddr: clientMac, ciaddr: clientIp, giaddr: GIADDR },
      { type: 'RELEASE', chaddr: clientMac, ciaddr: clientIp, giaddr: GIADDR, clientId: id },
      { type: 'DECLINE', chaddr: clientMac, requested: clientIp, giaddr: GIADDR },
      { type: 'RELEASE', chaddr: clientMac, ciaddr: clientIp },
      { type: 'DECLINE', chaddr: clientMac, requested: clientIp },
    ];
    const foreign = await metric('oooi_dhcp_drops_total', 'reason="foreign_source"');
    const naks = await metric('oooi_dhcp_replies_total', 'type="nak"');
    const renewals = (await client.events()).filter((e) => e.event === 'RENEW').length;
    expect(await send(POD_IP, forged)).toEqual([]);
    expect(await send(SERVER_IP, forged)).toEqual([]);
    expect(lab.server!.log()).not.toMatch(/"what":"(release|decline)"/);
    expect(await metric('oooi_dhcp_active_leases')).toBe(1);
    // the client's next renewal (T1 = 4 s) is ACKed with the same address
    const renew = await client.waitEvent(/^RENEW$/, renewals + 1, 20_000);
    expect(renew.vars.ip_address).toBe(clientIp);
    expect(await metric('oooi_dhcp_replies_total', 'type="nak"')).toBe(naks);
    expect((await client.events()).some((e) => /^(NAK|EXPIRE|FAIL)$/.test(e.event))).toBe(false);
    // the copies to serverIP reached the server (weak host) and were dropped; those to the pod address reached none
    expect(await metric('oooi_dhcp_drops_total', 'reason="foreign_source"')).toBe(foreign + forged.length);
    expect(lab.server!.alive()).toBe(true);
  });
});
