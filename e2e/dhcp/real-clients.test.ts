// oooi-dhcp against real clients (udhcpc, dhclient, dhcpcd), its namespace shaped like its pod: eth0 on the pod
// network with the default route, net1 on the VLAN. Every reply must leave on net1; requests from the pod
// network are ignored and counted.
import { e2eEnv, rigBin, sleep, waitFor, type Netns } from '@oooi/rig';
import { dhclientDaemon, dhcpcdOnce, udhcpcOnce } from './clients';
import { labConfig, openDhcpLab, POD_IP, SERVER_IP, type Capture, type DhcpLab } from './lab';

const config = labConfig({ renewalTimeSeconds: 4, rebindingTimeSeconds: 8 });
let lab: DhcpLab;
let onNet1: Capture;
let onEth0: Capture;
const held = new Map<string, string>(); // client label → address

const replies = (c: Capture) => c.lines().filter((l) => l.includes('BOOTP/DHCP, Reply'));
const inPool = (ip: string | undefined) => {
  const last = Number(ip?.split('.')[3]);
  return ip?.startsWith('198.51.100.') === true && last >= 100 && last <= 119;
};

beforeAll(async () => {
  lab = await openDhcpLab(e2eEnv().rig, config);
  onNet1 = await lab.capture(lab.srv, 'net1');
  onEth0 = await lab.capture(lab.srv, 'eth0');
  // no ARP probes before offers (the store is new, so they would run for a lease time): the DECLINE test needs the
  // server to offer the squatter's address, as it does outside the recovery window (store-loss.test.ts probes)
  await lab.startServer(['--log-level', 'debug', '--probe-timeout-ms', '0']);
});
afterAll(async () => {
  await lab?.dispose();
});

const bound = (events: { event: string; vars: Record<string, string> }[]) =>
  events.filter((e) => /^(bound|BOUND|REBOOT)$/.test(e.event)).at(-1);

describe('oooi-dhcp serves real clients on net1', () => {
  test('udhcpc: lease with router, every DNS server, domain, search list, MTU, classless routes, NTP', async () => {
    const ns = await lab.client('udhcpc');
    const b = bound(await udhcpcOnce(lab, ns, ['-x', 'hostname:vm-udhcpc']));
    expect(b).toBeDefined();
    const v = b!.vars;
    expect(inPool(v.ip)).toBe(true);
    expect(v).toMatchObject({
      subnet: '255.255.255.0',
      router: '198.51.100.1',
      dns: '198.51.100.53 198.51.100.54 198.51.100.55',
      domain: 'vlan.test',
      search: 'vlan.test apps.vlan.test',
      mtu: '1400',
      staticroutes: '10.0.0.0/8 198.51.100.1 0.0.0.0/0 198.51.100.1',
      ntpsrv: '198.51.100.123',
      lease: '600',
      serverid: SERVER_IP,
      broadcast: '198.51.100.255',
    });
    expect(await ns.addresses('eth0')).toEqual([`${v.ip}/24`]);
    held.set('udhcpc', v.ip!);
  });

  test('dhcpcd: lease and options', async () => {
    const ns = await lab.client('dhcpcd');
    const b = bound(await dhcpcdOnce(lab, ns, 'noarp\n'));
    expect(b).toBeDefined();
    const v = b!.vars;
    expect(inPool(v.ip_address)).toBe(true);
    expect(v).toMatchObject({
      routers: '198.51.100.1',
      domain_name_servers: '198.51.100.53 198.51.100.54 198.51.100.55',
      domain_name: 'vlan.test',
      domain_search: 'vlan.test apps.vlan.test',
      interface_mtu: '1400',
      subnet_cidr: '24',
    });
    expect(v.classless_static_routes).toBe('10.0.0.0/8 198.51.100.1 0.0.0.0/0 198.51.100.1');
    held.set('dhcpcd', v.ip_address!);
  });

  test('dhclient: lease, RENEW by unicast at T1, REBIND by broadcast when the server is unreachable, RELEASE', async () => {
    const ns = await lab.client('dhclient');
    const d = await dhclientDaemon(lab, ns);
    const b = await d.waitEvent(/^BOUND$/);
    const v = b.vars;
    expect(inPool(v.ip_address)).toBe(true);
    expect(v).toMatchObject({
      routers: '198.51.100.1',
      domain_name_servers: '198.51.100.53 198.51.100.54 198.51.100.55',
      domain_name: 'vlan.test',
      domain_search: 'vlan.test. apps.vlan.test.',
      interface_mtu: '1400',
      ntp_servers: '198.51.100.123',
      rfc3442_classless_static_routes: '8 10 198 51 100 1 0 198 51 100 1',
      dhcp_renewal_time: '4',
      dhcp_rebinding_time: '8',
    });
    const ip = v.ip_address!;
    // T1: a unicast REQUEST from the leased address to the server, answered
    const renew = await d.waitEvent(/^RENEW$/, 1, 20_000);
    expect(renew.vars.ip_address).toBe(ip);
    await waitFor(
      'the unicast renewal on net1',
      () => onNet1.lines().some((l) => l.includes(`${ip}.68 > ${SERVER_IP}.67`)),
      {
        timeoutMs: 5_000,
      },
    );
    // the server unreachable by unicast: renewals fail, and at T2 the client broadcasts (REBINDING)
    await ns.exec(['ip', 'route', 'add', 'blackhole', `${SERVER_IP}/32`]);
    await waitFor(
      'a broadcast REQUEST from the leased address (REBINDING), answered',
      () => {
        const lines = onNet1.lines();
        const at = lines.findIndex((l) => l.includes(`${ip}.68 > 255.255.255.255.67`));
        return at >= 0 && lines.slice(at).some((l) => l.includes(`${SERVER_IP}.67 > ${ip}.68`));
      },
      { timeoutMs: 30_000 },
    );
    await ns.exec(['ip', 'route', 'del', 'blackhole', `${SERVER_IP}/32`]);
    const before = lab
      .server!.log()
      .split('\n')
      .filter((l) => l.includes('"what":"release"')).length;
    await d.release();
    await sleep(500);
    expect(
      lab
        .server!.log()
        .split('\n')
        .filter((l) => l.includes('"what":"release"')).length,
    ).toBe(before + 1);
    held.set('dhclient', ip);
  });

  test('INIT-REBOOT for an address another client holds: NAK, then a fresh lease', async () => {
    const taken = held.get('udhcpc')!;
    const naks = await lab.metric('oooi_dhcp_replies_total', 'type="nak"');
    const ns = await lab.client('reboot');
    const lease = `lease {\n  interface "eth0";\n  fixed-address ${taken};\n  option subnet-mask 255.255.255.0;\n  option dhcp-server-identifier ${SERVER_IP};\n  renew 4 2037/01/01 00:00:00;\n  rebind 4 2037/01/01 00:00:00;\n  expire 4 2037/01/01 00:00:00;\n}\n`;
    const d = await dhclientDaemon(lab, ns, lease);
    const b = await d.waitEvent(/^BOUND$/);
    expect(await lab.metric('oooi_dhcp_replies_total', 'type="nak"')).toBe(naks + 1);
    expect(b.vars.ip_address).not.toBe(taken);
    expect((await d.events()).some((e) => e.event === 'REBOOT')).toBe(false);
    await d.release();
  });

  test('DECLINE: dhcpcd finds the offered address in use, declines it, takes another; it stays quarantined', async () => {
    // a squatter on the VLAN holds the first address of a pool the server has never used
    const next = '198.51.100.115';
    await lab.writeConfig({ ...config, pool: { start: next, end: '198.51.100.119' } });
    await waitFor('config reloaded', () => lab.server!.log().includes('Config reloaded'), {
      timeoutMs: 10_000,
    });
    await lab.client('squatter', lab.vlan, `${next}/24`);
    const ns = await lab.client('decliner');
    const events = await dhcpcdOnce(lab, ns);
    const b = bound(events);
    expect(b).toBeDefined();
    expect(b!.vars.ip_address).not.toBe(next);
    expect(lab.server!.log()).toContain('"what":"decline"');
    const after = bound(await udhcpcOnce(lab, await lab.client('after')));
    expect(after?.vars.ip).toMatch(/^198\.51\.100\.11[6-9]$/);
    await lab.writeConfig(config);
    await waitFor('config reloaded', () => lab.server!.log().split('Config reloaded').length === 3, {
      timeoutMs: 10_000,
    });
  });

  test('requests from the pod network are ignored; no reply ever leaves on eth0', async () => {
    const received = await lab.metric('oooi_dhcp_packets_received_total');
    // a relay on the pod network (perfdhcp sets giaddr to its own pod-network address)
    const relay = await lab.client('podrelay', lab.pod, '203.0.113.20/24');
    const perf = await relay.exec(
      [
        await rigBin('perfdhcp'),
        '-4',
        '-l',
        '203.0.113.20',
        '-R',
        '5',
        '-n',
        '5',
        '-r',
        '5',
        '-t',
        '1',
        POD_IP,
      ],
      { timeoutMs: 30_000 },
    );
    expect(perf.stdout).toMatch(/received packets: 0/);
    // unicasts to the pod-network address reach no socket (the broadcast socket is bound to 255.255.255.255)
    expect(await lab.metric('oooi_dhcp_packets_received_total')).toBe(received);
    // a pod-network host with an address sending a broadcast DISCOVER (udhcpc -s from its address is not possible,
    // so use a client whose eth0 holds a pod address: udhcpc then sends from 0.0.0.0 but its unicast renew would not)
    const podHost: Netns = await lab.client('podhost', lab.pod);
    const none = bound(await udhcpcOnce(lab, podHost, ['-t', '2']));
    expect(none).toBeUndefined();
    expect(replies(onEth0)).toEqual([]);
    expect(replies(onNet1).length).toBeGreaterThan(8);
  });
});

describe('config reload', () => {
  test('a shrunk pool is exhausted (no OFFER, counted, server alive); a bad file keeps the last good config; leases survive', async () => {
    const exhausted = await lab.metric('oooi_dhcp_drops_total', 'reason="pool_exhausted"');
    // a pool of one address, held (bound, unexpired) by the udhcpc client
    const only = held.get('udhcpc')!;
    const reloads = lab.server!.log().split('Config reloaded').length;
    await lab.writeConfig({ ...config, pool: { start: only, end: only } });
    await waitFor(
      'config reloaded',
      () => lab.server!.log().split('Config reloaded').length === reloads + 1,
      { timeoutMs: 10_000 },
    );
    expect(bound(await udhcpcOnce(lab, await lab.client('late'), ['-t', '2']))).toBeUndefined();
    expect(await lab.metric('oooi_dhcp_drops_total', 'reason="pool_exhausted"')).toBeGreaterThan(exhausted);
    expect(lab.server!.alive()).toBe(true);
    const failures = await lab.metric('oooi_dhcp_config_reloads_total', 'result="failure"');
    await lab.writeConfig('{"version": 1, "network": ');
    await sleep(1500);
    // One write may reach the watcher as more than one event (each a failed attempt): at least one is counted.
    expect(await lab.metric('oooi_dhcp_config_reloads_total', 'result="failure"')).toBeGreaterThan(failures);
    expect(lab.server!.log()).toContain('keeping the last good config');
    await lab.writeConfig(config);
    await sleep(1500);
    // leases survived both reloads: the active count still covers every client that is bound
    expect(await lab.metric('oooi_dhcp_active_leases')).toBeGreaterThanOrEqual(3);
    const fresh = bound(await udhcpcOnce(lab, await lab.client('fresh')));
    expect(inPool(fresh?.vars.ip)).toBe(true);
    expect([...held.values()]).not.toContain(fresh?.vars.ip);
  });

  test('SIGTERM: clean exit', async () => {
    await lab.server!.stop();
    expect(lab.server!.log()).toContain('"msg":"Stopped"');
  });
});
