// oooi-dhcp in KubeVirt mode against the real apiserver and real clients: the server runs in a pod-shaped
// namespace under a ServiceAccount token bound to exactly the Roles packages/dhcp/README.md documents (a missing
// permission leaves the caches unsynced or the status unwritten, and the test fails); VMIs and VMs are written
// through the API as KubeVirt writes them; udhcpc and dhclient run with the VMIs' MACs in namespaces of their own.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DhcpConfig } from '@oooi/api';
import { bridgeLoopbackPort, dhcpLease, e2eEnv, rigBin, waitFor, type Netns } from '@oooi/rig';
import { udhcpcOnce, type ClientEvent } from './clients';
import { labConfig, openDhcpLab, type DhcpLab } from './lab';
import {
  connect,
  controllerStatus,
  dhcpServer,
  kinds,
  namespace,
  putVm,
  putVmi,
  remove,
  serviceAccount,
  tokenKubeconfig,
  type Cluster,
} from './kubevirt-cluster';

jest.setTimeout(240_000);

const VMS = 'vms';
const ELSEWHERE = 'not-watched';
const SRV_NS = 'dhcp';
const DHCP = 'vlan-dhcp';
const GRACE_S = 4;
const MAC = {
  alpha: '02:aa:00:00:00:01',
  beta: '02:aa:00:00:00:02',
  gamma: '02:aa:00:00:00:03',
  delta: '02:aa:00:00:00:04',
  epsilon: '02:aa:00:00:00:05',
  zeta: '02:aa:00:00:00:06',
};

const config = (unknownClients: 'serve' | 'refuse'): DhcpConfig =>
  labConfig({
    kubevirt: {
      namespaces: [VMS],
      networkName: `${VMS}/vlan-net`,
      unknownClients,
      releaseGraceSeconds: GRACE_S,
    },
    status: { namespace: SRV_NS, name: DHCP },
  });

let lab: DhcpLab;
let c: Cluster;
let saKubeconfig: string;
const clients = new Map<keyof typeof MAC, Netns>();

async function client(name: keyof typeof MAC): Promise<Netns> {
  const ns = await lab.client(name);
  const ip = await rigBin('ip');
  for (const argv of [['down'], ['address', MAC[name]], ['up']]) {
    const r = await ns.exec([ip, 'link', 'set', 'dev', 'eth0', ...argv]);
    if (r.code !== 0) throw new Error(`ip link set ${argv.join(' ')}: ${r.stderr}`);
  }
  clients.set(name, ns);
  return ns;
}

const bound = (events: ClientEvent[]) => events.filter((e) => /^(bound|BOUND)$/.test(e.event)).at(-1)?.vars;

/** One udhcpc run (DISCOVER → BOUND) for NAME; the vars of its lease, or undefined when none came. */
async function lease(name: keyof typeof MAC, extra: string[] = []) {
  return bound(await udhcpcOnce(lab, clients.get(name)!, extra));
}

const metric = (name: string, label?: string) => lab.metric(name, label);
/** waitFor, with the server's last log lines in the error (so a failure says what oooi-dhcp saw). */
async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  try {
    await waitFor(what, cond, { timeoutMs, everyMs: 200 });
  } catch (err) {
    const log = lab.server?.log().split('\n').slice(-40).join('\n');
    const curl = await rigBin('curl');
    const metrics = (await lab.srv.exec([curl, '-s', 'http://127.0.0.1:9167/metrics'])).stdout
      .split('\n')
      .filter((l) => /^oooi_dhcp_(kubevirt|watch|cache|status)/.test(l))
      .join('\n');
    throw new Error(`${String(err)}\noooi-dhcp log:\n${log}\nmetrics:\n${metrics}`, { cause: err });
  }
}

async function startServer(): Promise<void> {
  await lab.startServer([
    '--kubeconfig',
    saKubeconfig,
    '--status-interval-ms',
    '300',
    '--log-level',
    'debug',
  ]);
}

interface DhcpStatus {
  observedGeneration?: number;
  activeLeases?: number;
  totalLeases?: number;
  poolSize?: number;
  configMapName?: string;
  conditions?: { type: string; status: string; reason: string }[];
}
const status = async () =>
  ((await c.admin.get(kinds.DHCPServer, { namespace: SRV_NS, name: DHCP }))?.status ?? {}) as DhcpStatus;

beforeAll(async () => {
  const env = e2eEnv();
  c = await connect(env.kubeconfig);
  for (const ns of [VMS, ELSEWHERE, SRV_NS]) await namespace(c, ns);
  await dhcpServer(c, SRV_NS, DHCP);
  await serviceAccount(c, { namespace: SRV_NS, name: 'oooi-dhcp', vmNamespaces: [VMS], dhcpServer: DHCP });
  lab = await openDhcpLab(env.rig, config('refuse'));
  saKubeconfig = await tokenKubeconfig(c, {
    adminKubeconfig: env.kubeconfig,
    namespace: SRV_NS,
    name: 'oooi-dhcp',
    out: join(lab.scope.dir, 'oooi-dhcp.kubeconfig'),
  });
  await bridgeLoopbackPort(lab.scope, lab.srv, c.apiPort);
  for (const name of Object.keys(MAC) as (keyof typeof MAC)[]) await client(name);
  await startServer();
});
afterAll(async () => {
  await lab?.dispose();
  c?.rest.close();
});

describe('oooi-dhcp with VMIs on the real apiserver', () => {
  test('a VMI reporting an address: its MAC gets that address and the VMI name as host name', async () => {
    await putVmi(c, {
      namespace: VMS,
      name: 'alpha',
      mac: MAC.alpha,
      ips: ['198.51.100.105'],
    });
    await until(
      'alpha pinned',
      async () => (await metric('oooi_dhcp_kubevirt_reservations', 'source="vmi"')) === 1,
    );
    const got = await lease('alpha');
    expect(got).toMatchObject({ ip: '198.51.100.105', hostname: 'alpha' });
  });

  test('the lease dir is wiped and the server restarted: the MAC gets the same address', async () => {
    await lab.server!.stop();
    await rm(lab.leaseDir, { recursive: true, force: true });
    await startServer();
    expect(await metric('oooi_dhcp_active_leases')).toBe(0);
    expect((await lease('alpha'))?.ip).toBe('198.51.100.105');
  });

  test('a VM-owned VMI deleted and recreated: its address stays held meanwhile', async () => {
    const uid = await putVm(c, { namespace: VMS, name: 'beta' });
    await putVmi(c, { namespace: VMS, name: 'gamma', mac: MAC.gamma }); // a VMI with no address yet
    await putVmi(c, { namespace: VMS, name: 'beta', mac: MAC.beta, ips: ['198.51.100.106'], ownerUid: uid });
    await until(
      'beta pinned',
      async () => (await metric('oooi_dhcp_kubevirt_reservations', 'source="vmi"')) === 2,
    );
    // dhclient releases its lease when it stops
    expect((await dhcpLease(lab.scope, clients.get('beta')!, { client: 'dhclient' })).ip).toBe(
      '198.51.100.106',
    );
    await remove(c, kinds.VMI, VMS, 'beta');
    await until(
      'beta held by its VM',
      async () => (await metric('oooi_dhcp_kubevirt_reservations', 'source="vm_affinity"')) === 1,
    );
    await new Promise((r) => setTimeout(r, (GRACE_S + 2) * 1000));
    // gamma asks for the released address: it is the VM's, so gamma gets another
    const gamma = await lease('gamma', ['-r', '198.51.100.106']);
    expect(gamma?.ip).toMatch(/^198\.51\.100\.1(0[0-9]|1[0-9])$/);
    expect(gamma?.ip).not.toBe('198.51.100.106');
    await putVmi(c, { namespace: VMS, name: 'beta', mac: MAC.beta, ownerUid: uid }); // restarted, no address yet
    await until(
      'beta back',
      async () => (await metric('oooi_dhcp_kubevirt_vmis', 'scope="on_network"')) === 3,
    );
    expect((await lease('beta'))?.ip).toBe('198.51.100.106');
  });

  test('a standalone VMI deleted: its lease is released after the grace and the address goes to another client', async () => {
    // two VMIs with no address yet and no lease: a client's current address would win over the one it asks for
    await putVmi(c, { namespace: VMS, name: 'epsilon', mac: MAC.epsilon });
    await putVmi(c, { namespace: VMS, name: 'zeta', mac: MAC.zeta });
    await until(
      'epsilon and zeta known',
      async () => (await metric('oooi_dhcp_kubevirt_vmis', 'scope="on_network"')) === 5,
    );
    const deletedAt = Date.now();
    await remove(c, kinds.VMI, VMS, 'alpha');
    await until(
      'alpha in grace',
      async () => (await metric('oooi_dhcp_kubevirt_reservations', 'source="grace"')) === 1,
    );
    const early = await lease('epsilon', ['-r', '198.51.100.105']);
    expect(early?.ip).toMatch(/^198\.51\.100\.1(0[0-9]|1[0-9])$/);
    expect(early?.ip).not.toBe('198.51.100.105');
    await until(
      'alpha released',
      async () => (await metric('oooi_dhcp_kubevirt_leases_released_total')) === 1,
    );
    expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(GRACE_S * 1000);
    expect((await lease('zeta', ['-r', '198.51.100.105']))?.ip).toBe('198.51.100.105');
  });

  test('a client with no VMI is refused under refuse and served under serve; VMIs outside the watched namespaces do not count', async () => {
    await putVmi(c, {
      namespace: ELSEWHERE,
      name: 'delta',
      network: 'vms/vlan-net',
      mac: MAC.delta,
      ips: ['198.51.100.150'],
    });
    const refusedBefore = await metric(
      'oooi_dhcp_kubevirt_unknown_client_requests_total',
      'result="refused"',
    );
    expect(await lease('delta', ['-t', '2', '-T', '1'])).toBeUndefined();
    expect(
      await metric('oooi_dhcp_kubevirt_unknown_client_requests_total', 'result="refused"'),
    ).toBeGreaterThan(refusedBefore);
    const reloads = await metric('oooi_dhcp_config_reloads_total', 'result="success"');
    await lab.writeConfig(config('serve'));
    await until(
      'reloaded',
      async () => (await metric('oooi_dhcp_config_reloads_total', 'result="success"')) > reloads,
    );
    // were the other namespace watched, delta would get its VMI's 198.51.100.150 (outside the pool)
    const delta = await lease('delta');
    expect(delta?.ip).toMatch(/^198\.51\.100\.1(0[0-9]|1[0-9])$/);
    expect(
      await metric('oooi_dhcp_kubevirt_unknown_client_requests_total', 'result="served"'),
    ).toBeGreaterThan(0);
  });

  test('the DHCPServer status counts what the clients hold, beside the controller’s untouched fields', async () => {
    // held now: beta .106, zeta .105 (alpha's, released), gamma, epsilon and delta one pool address each
    await until('status written', async () => (await status()).activeLeases === 5);
    expect(await metric('oooi_dhcp_active_leases')).toBe(5);
    const s = await status();
    // every record is a bound lease: alpha's released one was taken over by zeta
    expect(s).toMatchObject({
      activeLeases: 5,
      totalLeases: 5,
      poolSize: 20,
      observedGeneration: 1,
      configMapName: `${DHCP}-config`,
    });
    const cond = Object.fromEntries((s.conditions ?? []).map((x) => [x.type, `${x.status} ${x.reason}`]));
    expect(cond).toEqual({
      Ready: 'True Provisioned',
      Available: 'True DeploymentAvailable',
      Serving: 'True Serving',
      // a new store (first start, and the lease directory wiped earlier in this file): in its recovery window
      LeaseStore: 'True Recovering',
    });
    // the controller applies its status again: oooi-dhcp's fields stay
    await controllerStatus(c, SRV_NS, DHCP);
    const after = await status();
    expect(after).toMatchObject({ activeLeases: 5, poolSize: 20 });
    expect(after.conditions?.map((x) => x.type).sort()).toEqual([
      'Available',
      'LeaseStore',
      'Ready',
      'Serving',
    ]);
    expect(await metric('oooi_dhcp_status_writes_total', 'result="failed"')).toBe(0);
    // every request the server made was allowed: a permission missing from the documented Role shows here
    expect(lab.server!.log()).not.toMatch(/forbidden/i);
  });
});
