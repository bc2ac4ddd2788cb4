// `oooi render` of examples/ writes `dhcp/<namespace>-<name>/config.json` for the standalone DHCPServer and for the
// Infra's child, and each file is served as is: `pnpm --silent oooi-dhcp --config FILE --interface net1 --lease-dir
// DIR` (its tsx entry), in a namespace shaped like the pod (eth0 on the pod network with the default route, net1 on the VLAN at the
// server address), gives a real udhcpc on the VLAN a lease with the file's options.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DhcpConfig } from '@oooi/api';
import { dhcpLease, repoRoot, rigBin, waitFor, type TrackedProc } from '@oooi/rig';
import { openDhcpNet, POD_GATEWAY, type DhcpNet } from './controller-lab';

jest.setTimeout(180_000);
const run = promisify(execFile);
let out: string;
let rendered: string[];

beforeAll(async () => {
  out = join(mkdtempSync(join(tmpdir(), 'oooi-dhcp-render-')), 'out');
  const files = ['infra.yaml', 'attachments.yaml', 'dhcpserver.yaml'].flatMap((f) => [
    '-f',
    join(repoRoot, 'examples', f),
  ]);
  const res = await run('pnpm', ['--silent', 'oooi', 'render', ...files, '-o', out], { cwd: repoRoot });
  expect(res.stderr).toBe('');
  rendered = (await run('find', [join(out, 'dhcp'), '-type', 'f'])).stdout.trim().split('\n').sort();
});

afterAll(() => rmSync(join(out, '..'), { recursive: true, force: true }));

test('one config.json per DHCPServer, under dhcp/<namespace>-<name>/', () => {
  expect(rendered.map((p) => p.slice(out.length + 1))).toEqual([
    'dhcp/clusters-vlan100-dhcp/config.json',
    'dhcp/lab-lab-dhcp/config.json',
  ]);
});

describe.each([
  { dir: 'lab-lab-dhcp', cidr: '198.51.100.0/25', prefix: '255.255.255.128' },
  { dir: 'clusters-vlan100-dhcp', cidr: '198.51.100.0/24', prefix: '255.255.255.0' },
])('dhcp/$dir/config.json served as is by oooi-dhcp', ({ dir, cidr, prefix }) => {
  let net: DhcpNet;
  let server: TrackedProc;
  const file = () => join(out, 'dhcp', dir, 'config.json');
  const config = () => JSON.parse(readFileSync(file(), 'utf8')) as DhcpConfig;

  beforeAll(async () => {
    net = await openDhcpNet(cidr);
    const c = config();
    const bits = cidr.split('/')[1];
    const srv = await net.scope.createNamespace('dhcpsrv');
    await net.pod.attach(srv, { ifname: 'eth0', address: '203.0.113.10/24' });
    await net.vlan.attach(srv, { ifname: 'net1', address: `${c.network.serverIP}/${bits}` });
    await srv.exec(['ip', 'route', 'add', 'default', 'via', POD_GATEWAY, 'dev', 'eth0']);
    // What `pnpm --silent oooi-dhcp` runs (the root package.json script), without pnpm in between: pnpm does not
    // pass SIGTERM on, and the server must stop with the scope.
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
    const argv = [tsx, 'packages/dhcp/src/main.ts', '--config', file(), '--interface', 'net1'];
    const health = '127.0.0.1:18081';
    server = srv.spawn(
      [
        ...argv,
        '--lease-dir',
        join(net.scope.dir, 'leases'),
        '--health-addr',
        health,
        '--metrics-addr',
        'off',
      ],
      { label: 'oooi-dhcp', cwd: repoRoot },
    );
    const curl = await rigBin('curl');
    await waitFor(
      'oooi-dhcp ready',
      async () => {
        if (!server.alive()) throw new Error(`oooi-dhcp exited:\n${server.log().slice(-2000)}`);
        return (await srv.exec([curl, '-sf', `http://${health}/readyz`])).code === 0;
      },
      { timeoutMs: 60_000, everyMs: 250 },
    );
  });

  afterAll(async () => {
    await server?.stop();
    await net?.dispose();
  });

  test('a real udhcpc on the VLAN gets a pool address with the file’s router, mask and resolvers', async () => {
    const c = config();
    const vm = await net.scope.createNamespace('vm');
    await net.vlan.attach(vm);
    const l = await dhcpLease(net.scope, vm, { client: 'udhcpc' });
    const n = (ip: string) => ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
    expect(n(l.ip)).toBeGreaterThanOrEqual(n(c.pool.start));
    expect(n(l.ip)).toBeLessThanOrEqual(n(c.pool.end));
    expect(c.excluded?.includes(l.ip) ?? false).toBe(false);
    expect(l.vars).toMatchObject({ router: c.network.gateway, subnet: prefix, serverid: c.network.serverIP });
    expect(l.vars.dns?.split(' ')).toEqual(c.options.dnsServers);
    expect(server.alive()).toBe(true);
  });
});
