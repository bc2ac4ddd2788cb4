// Real DHCP across namespaces: dnsmasq serves a range on the VLAN; busybox udhcpc and ISC dhclient in another
// namespace each get a lease, and the hook sets the address inside the client's namespace only.
import { join } from 'node:path';
import { cidrContains, dhcpLease, e2eEnv, openNetScope, rigBin, sleep, type NetScope } from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

describe('DHCP clients against dnsmasq', () => {
  let scope: NetScope | undefined;
  afterAll(async () => scope?.dispose());

  it('udhcpc and dhclient get leases from dnsmasq on the VLAN', async () => {
    scope = openNetScope(e2eEnv().rig);
    const vlan = await scope.createNetwork({ label: 'vlan', kind: 'vlan' });
    const [srv, cli] = await Promise.all([scope.createNamespace('dhcpsrv'), scope.createNamespace('vm')]);
    await vlan.attach(srv, { address: '198.51.100.2/24' });
    await vlan.attach(cli); // no address: the client gets one
    const dnsmasq = srv.spawn(
      [
        await rigBin('dnsmasq'), '-k', '-C', '/dev/null', '--port=0', '--interface=eth0', '--bind-interfaces',
        '--dhcp-range=198.51.100.100,198.51.100.150,255.255.255.0,1h', '--dhcp-authoritative',
        '--dhcp-option=option:router,198.51.100.1', '--dhcp-option=option:dns-server,198.51.100.53',
        `--dhcp-leasefile=${join(scope.dir, 'dnsmasq.leases')}`, `--pid-file=${join(scope.dir, 'dnsmasq.pid')}`,
        '--no-ping', '--user=root', '--log-dhcp', '--log-facility=-',
      ], // prettier-ignore
      { label: 'dnsmasq' },
    );
    await sleep(300);
    expect(dnsmasq.alive()).toBe(true);

    const lease = await dhcpLease(scope, cli, { client: 'udhcpc' });
    expect(cidrContains('198.51.100.96/27', lease.ip) || cidrContains('198.51.100.128/27', lease.ip)).toBe(
      true,
    );
    expect(lease.vars.router).toBe('198.51.100.1');
    expect(lease.vars.dns).toBe('198.51.100.53');
    expect(await cli.addresses('eth0')).toEqual([`${lease.ip}/24`]);

    const second = await dhcpLease(scope, cli, { client: 'dhclient' });
    expect(Number(second.ip.split('.')[3])).toBeGreaterThanOrEqual(100);
    expect(second.vars.routers).toBe('198.51.100.1');
    expect(dnsmasq.log()).toMatch(/DHCPACK\(eth0\)/);
  });
});
