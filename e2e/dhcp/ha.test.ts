// A hot-standby pair of oooi-dhcp host processes (ha-lab.ts) with real clients on the VLAN: (a) an ACKed lease is
// in both stores; (b) SIGKILL of the primary: a new client is answered by the standby (the time is printed) and a
// client holding a lease rebinds the same address from it; (c) the primary returns, catches up, the pair is normal
// again; (d) the channel cut by iptables while the primary serves: the standby does not answer; (h) the same cut as
// a client starts, its retries inside max-response-delay: the standby does not answer either; (e) 20 clients
// across a failover: no address to two MACs; (g) a clean stop of the primary: the standby serves at once; (f)
// strangers on the pair port are refused and counted, and every lease a client saw is in both stores.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2eEnv, repoRoot, rigBin, sleep, waitFor, type Netns } from '@oooi/rig';
import { dhclientDaemon, udhcpcOnce, type Daemon } from './clients';
import { HA_PORT, macOf, openHaLab, PRIMARY_IP, STANDBY_IP, type HaLab } from './ha-lab';

let lab: HaLab;
let clientA: Netns;
let dhclientA: Daemon;
let ipA = '';
/** mac -> address, every lease a client saw bound. */
const seen = new Map<string, string>();

beforeAll(async () => {
  lab = await openHaLab(e2eEnv().rig);
  await Promise.all([lab.primary.start(), lab.standby.start()]);
  await lab.bothIn('hot-standby');
}, 90_000);
afterAll(async () => {
  const keep = process.env.OOOI_HA_LOGS;
  if (keep !== undefined && dhclientA !== undefined) {
    await copyFile(dhclientA.proc.logFile, join(keep, 'dhclient-a.log')).catch(() => undefined);
    await writeFile(join(keep, 'dhclient-a.events'), JSON.stringify(await dhclientA.events(), null, 1));
  }
  await dhclientA?.proc.stop();
  await lab?.dispose();
});

const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');

/** udhcpc in NS until bound (EXTRA: more flags); the address. */
async function bound(ns: Netns, extra: readonly string[] = []): Promise<string> {
  const ev = (await udhcpcOnce(lab, ns, ['-t', '30', '-T', '1', ...extra])).find((e) => e.event === 'bound');
  if (ev === undefined) throw new Error('udhcpc got no lease');
  const ip = ev.vars.ip!;
  seen.set(await macOf(ns), ip);
  return ip;
}

function expectOneMacPerAddress(pairs: Iterable<[string, string]>): void {
  const owner = new Map<string, string>();
  for (const [mac, ip] of pairs) {
    expect(`${ip} ${owner.get(ip) ?? mac}`).toBe(`${ip} ${mac}`);
    owner.set(ip, mac);
  }
}

test('(a) an ACKed lease is durable in both stores', async () => {
  clientA = await lab.client('ha-client-a');
  dhclientA = await dhclientDaemon(lab, clientA);
  ipA = (await dhclientA.waitEvent(/^BOUND$/)).vars.ip_address!;
  seen.set(await macOf(clientA), ipA);
  expect(await lab.standby.metric('oooi_dhcp_replies_total')).toBe(0);
  expect(await lab.standby.metric('oooi_dhcp_drops_total', 'ha_not_serving')).toBeGreaterThan(0);
  await Promise.all([lab.primary.stop(), lab.standby.stop()]);
  const mac = await macOf(clientA);
  for (const s of [lab.primary, lab.standby]) {
    const l = [...(await s.leases()).values()].find((x) => x.mac === mac);
    expect(`${s.role} ${l?.state} ${l?.ip}`).toBe(`${s.role} bound ${ipToNumber(ipA)}`);
  }
  await Promise.all([lab.primary.start(), lab.standby.start()]);
  await lab.bothIn('hot-standby');
}, 120_000);

test('(b) SIGKILL of the primary: the standby answers a new client and the holder rebinds its address', async () => {
  const clientB = await lab.client('ha-client-b');
  const eventsBefore = (await dhclientA.events()).length;
  const t0 = Date.now();
  await lab.primary.kill();
  await bound(clientB);
  const took = Date.now() - t0;
  console.log(`takeover: new client bound by the standby ${took} ms after SIGKILL of the primary`);
  expect(took).toBeLessThan(30_000); // the goal is 10 s; the bound is generous for a loaded machine
  expect(await lab.standby.state()).toBe('partner-down');
  // dhclient rebinds (a broadcast REQUEST once its unicast renewals to the dead primary went unanswered) and reports
  // the standby's ACK as RENEW or REBIND
  await waitFor(
    'dhclient A rebound by the standby',
    async () =>
      (await dhclientA.events())
        .slice(eventsBefore)
        .some((e) => /^(RENEW|REBIND)$/.test(e.event) && e.vars.dhcp_server_identifier === STANDBY_IP),
    { timeoutMs: 30_000, everyMs: 250 },
  );
  const last = (await dhclientA.events()).at(-1)!;
  expect(last.vars.ip_address).toBe(ipA);
}, 90_000);

test('(c) the primary returns, catches up and the pair is normal again', async () => {
  await lab.primary.start();
  await lab.bothIn('hot-standby');
  const [macB, ipB] = [...seen.entries()].at(-1)!;
  // a stranger asking for B's address does not get it from the primary: it knows the standby gave it out
  const stranger = await lab.client('ha-client-c');
  const got = await bound(stranger, ['-r', ipB]);
  expect(got).not.toBe(ipB);
  expect(macB).not.toBe(await macOf(stranger));
  expect(await lab.primary.metric('oooi_dhcp_ha_leases_received_total')).toBeGreaterThan(0);
}, 90_000);

test('(d) the channel cut while the primary serves: the standby does not start answering', async () => {
  const iptables = await rigBin('iptables');
  const rules = [
    ['INPUT', '-p', 'tcp', '--dport', String(HA_PORT), '-j', 'DROP'],
    ['INPUT', '-p', 'tcp', '--sport', String(HA_PORT), '-j', 'DROP'],
  ];
  const repliesBefore = await lab.standby.metric('oooi_dhcp_replies_total');
  try {
    for (const r of rules) expect((await lab.primary.ns.exec([iptables, '-A', ...r])).code).toBe(0);
    await waitFor('primary alone', async () => (await lab.primary.state()) === 'partner-down', {
      timeoutMs: 20_000,
      everyMs: 250,
    });
    const clientD = await lab.client('ha-client-d');
    await bound(clientD);
    await sleep(6000); // three max-response-delays more, dhclient A renewing and rebinding meanwhile
    await bound(clientD);
    expect(await lab.standby.state()).toBe('hot-standby');
    // the standby asked the primary on the client network, and the live primary answered
    expect(lab.standby.proc!.log()).toContain('Partner answered the probe on the client network');
    expect(await lab.standby.metric('oooi_dhcp_replies_total')).toBe(repliesBefore);
  } finally {
    for (const r of rules) await lab.primary.ns.exec([iptables, '-D', ...r]);
  }
  await lab.bothIn('hot-standby');
}, 90_000);

test('(h) the channel cut as a client starts: its retries inside max-response-delay never make the standby answer', async () => {
  const [iptables, udhcpc] = [await rigBin('iptables'), await rigBin('udhcpc')];
  const rules = [
    ['INPUT', '-p', 'tcp', '--dport', String(HA_PORT), '-j', 'DROP'],
    ['INPUT', '-p', 'tcp', '--sport', String(HA_PORT), '-j', 'DROP'],
  ];
  const repliesBefore = await lab.standby.metric('oooi_dhcp_replies_total');
  const client = await lab.client('ha-client-h');
  try {
    for (const r of rules) expect((await lab.primary.ns.exec([iptables, '-A', ...r])).code).toBe(0);
    await waitFor(
      'standby sees the channel down',
      async () => (await lab.standby.metric('oooi_dhcp_ha_partner_reachable')) === 0,
      { timeoutMs: 20_000, everyMs: 100 },
    );
    // now: the client's DISCOVERs and REQUESTs fall inside both servers' max-response-delay, while the live primary
    // offers (nothing to replicate) but sends no ACK it cannot replicate; udhcpc sends its REQUEST three times with
    // one xid, a second apart (more than max-ack-delay from first to last), then starts again with a new DISCOVER
    // (-A 1, no -n: it goes on)
    const r = await client.exec(
      [udhcpc, '-f', '-q', '-t', '30', '-T', '1', '-A', '1', '-i', 'eth0', '-s', '/bin/true'],
      { timeoutMs: 60_000 },
    );
    expect(r.code).toBe(0);
    await sleep(4000); // past the standby's window (max-response-delay + two heartbeats) and a max-ack-delay more
    expect(await lab.standby.state()).toBe('hot-standby');
    expect(await lab.standby.metric('oooi_dhcp_replies_total')).toBe(repliesBefore);
    expect(await lab.primary.state()).toBe('partner-down');
  } finally {
    for (const r of rules) await lab.primary.ns.exec([iptables, '-D', ...r]);
  }
  await lab.bothIn('hot-standby');
}, 90_000);

test('(i) SIGKILL of the primary with no client asking: the standby takes over on its own probe within max-response-delay', async () => {
  // no new client, and dhclient A renews by unicast only once in a long while: without the standby's INFORM to the
  // primary (unanswered: the process is dead) nothing would count as an unanswered client for many seconds
  const t0 = Date.now();
  await lab.primary.kill();
  await waitFor('the standby in partner-down', async () => (await lab.standby.state()) === 'partner-down', {
    timeoutMs: 30_000,
    everyMs: 100,
  });
  const took = Date.now() - t0;
  console.log(`takeover on the probe: the standby in partner-down ${took} ms after SIGKILL of the primary`);
  // max-response-delay is 2 s here, max-ack-delay 1.5 s; a REQUEST retry could count only after 3 s + 1.5 s
  expect(took).toBeLessThan(4000);
  expect(lab.standby.proc!.log()).toContain('Partner unanswered on the client network');
  await lab.primary.start();
  await lab.bothIn('hot-standby');
}, 90_000);

test('(e) 20 clients across a failover: no address is handed to two MACs', async () => {
  const early = await Promise.all(Array.from({ length: 10 }, (_, i) => lab.client(`ha-early-${i}`)));
  const late = await Promise.all(Array.from({ length: 10 }, (_, i) => lab.client(`ha-late-${i}`)));
  const earlyIps = await Promise.all(early.map((ns) => bound(ns)));
  await lab.primary.kill();
  const [again, lateIps] = await Promise.all([
    Promise.all(early.map((ns, i) => bound(ns, ['-r', earlyIps[i]!]))),
    Promise.all(late.map((ns) => bound(ns))),
  ]);
  expect(again).toEqual(earlyIps);
  expect(new Set([...earlyIps, ...lateIps]).size).toBe(20);
  expectOneMacPerAddress(seen.entries());
  await lab.primary.start();
  await lab.bothIn('hot-standby');
}, 180_000);

test('(g) a clean stop of the primary (SIGTERM, as in a rollout): the standby serves at once', async () => {
  const client = await lab.client('ha-client-g');
  const t0 = Date.now();
  await lab.primary.stop();
  await bound(client);
  console.log(
    `clean stop: new client bound by the standby ${Date.now() - t0} ms after SIGTERM of the primary`,
  );
  expect(await lab.standby.state()).toBe('partner-down');
  // it took over on the primary's word, without waiting for a client to go unanswered
  expect(await lab.standby.metric('oooi_dhcp_ha_unacked_clients')).toBe(0);
  await lab.primary.start();
  await lab.bothIn('hot-standby');
}, 90_000);

test('(f) strangers on the pair port, from a VLAN client and from another namespace, are refused and counted', async () => {
  const other = await lab.client('ha-stranger', '198.51.100.250/24');
  const before =
    (await lab.primary.metric('oooi_dhcp_ha_messages_refused_total')) +
    (await lab.standby.metric('oooi_dhcp_ha_messages_refused_total'));
  for (const ns of [clientA, other]) {
    for (const target of [PRIMARY_IP, STANDBY_IP]) {
      const r = await ns.exec([tsx, join(__dirname, 'ha-forger.ts'), target, String(HA_PORT)], {
        timeoutMs: 30_000,
        cwd: repoRoot,
      });
      expect(r.stdout.trim().split('\n').sort()).toEqual([
        'closed garbage',
        'closed guessed-secret',
        'closed lease-without-hello',
      ]);
    }
  }
  const after =
    (await lab.primary.metric('oooi_dhcp_ha_messages_refused_total')) +
    (await lab.standby.metric('oooi_dhcp_ha_messages_refused_total'));
  expect(after - before).toBe(12);
  expect(await lab.primary.state()).toBe('hot-standby');
  expect(await lab.standby.state()).toBe('hot-standby');

  // and in the end: every lease a client saw is in both stores, none forged
  await dhclientA.proc.stop();
  await Promise.all([lab.primary.stop(), lab.standby.stop()]);
  for (const s of [lab.primary, lab.standby]) {
    const table = await s.leases();
    const byMac = new Map([...table.values()].filter((l) => l.state === 'bound').map((l) => [l.mac, l.ip]));
    for (const [mac, ip] of seen)
      expect(`${s.role} ${mac} ${byMac.get(mac)}`).toBe(`${s.role} ${mac} ${ipToNumber(ip)}`);
    expect(byMac.has('02:66:66:66:66:66')).toBe(false);
  }
}, 120_000);

function ipToNumber(s: string): number {
  return s.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}
