// The operator deploys the DHCP hot-standby pair (docs/high-availability.md "DHCP"): on the rig's real apiserver a
// DHCPServer with spec.networkConfig.standbyServerIP makes the DHCPServer controller write the pair's Secret and two
// Deployments (the primary on serverIP, the standby `<w>-1` on standbyServerIP); the sandbox's kubelet stand-in runs
// both pods on the VLAN as written (each container's args, its config key of the one ConfigMap, the Secret volume,
// each pod's own Multus address, under a token of the pod's ServiceAccount). A real udhcpc gets a lease from the
// primary; the primary's oooi-dhcp is SIGKILLed; a new client is then served by the standby (the time is printed),
// and the first client, asking again, keeps its address (the standby holds its lease).
import { e2eEnv, waitFor, type Netns } from '@oooi/rig';
import type { KubeObject } from '@oooi/kube';
import { SandboxKubelet } from '../sandbox/kubelet';
import { udhcpcOnce } from './clients';
import {
  DeploymentKind,
  DhcpServerKind,
  exampleIn,
  openDhcpNet,
  startControllerWorld,
  type ControllerWorld,
  type DhcpNet,
} from './controller-lab';

jest.setTimeout(300_000);

const NAME = 'lab-dhcp';
const STANDBY = `${NAME}-1`;
const PRIMARY_IP = '198.51.100.2';
const STANDBY_IP = '198.51.100.6';
const SecretKind = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
const log: string[] = [];
let world: ControllerWorld | undefined;
let net: DhcpNet | undefined;
let kubelet: SandboxKubelet | undefined;
const stop = new AbortController();

afterAll(async () => {
  stop.abort();
  await kubelet?.stop();
  await net?.dispose();
  await world?.dispose();
  if (log.length > 0) console.log(log.join('\n'));
});

/** udhcpc in NS until bound: its address and the server that answered (option 54). */
async function lease(ns: Netns): Promise<{ ip: string; server: string }> {
  const ev = (await udhcpcOnce(net!, ns, ['-t', '30', '-T', '1'])).find((e) => e.event === 'bound');
  if (ev === undefined) throw new Error('udhcpc got no lease');
  return { ip: ev.vars.ip!, server: ev.vars.serverid ?? '' };
}

test('a DHCPServer with standbyServerIP: both Deployments and the Secret; the standby serves once the primary is killed', async () => {
  world = await startControllerWorld(`${NAME}-leases`);
  net = await openDhcpNet();
  const w = world;
  const d = exampleIn(w.namespace, w.vms);
  delete d.spec.leaseStorage;
  (d.spec.networkConfig as Record<string, unknown>).standbyServerIP = STANDBY_IP;
  await w.user.apply(DhcpServerKind, d, { force: true });

  // the controller's writes: the Secret, then both Deployments, each on its own address
  const secret = await waitForObject<KubeObject & { data?: Record<string, string> }>(
    w,
    SecretKind,
    `${NAME}-ha`,
  );
  expect(Buffer.from(secret.data?.secret ?? '', 'base64').toString()).toMatch(/^[0-9a-f]{64}$/);
  expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'DHCPServer', name: NAME });
  for (const [name, ip] of [
    [NAME, PRIMARY_IP],
    [STANDBY, STANDBY_IP],
  ] as const) {
    const dep = await waitForObject<KubeObject>(w, DeploymentKind, name);
    expect(JSON.stringify(dep.spec)).toContain(`\\"${ip}/25\\"`);
  }

  const kb = new SandboxKubelet({
    scope: net.scope,
    adminKubeconfig: e2eEnv().kubeconfig,
    namespace: w.namespace,
    vlan: net.vlan,
    // each pod its own pod-network address
    podNetwork: {
      network: net.pod,
      address: (dep) => (dep === NAME ? '203.0.113.10/24' : '203.0.113.11/24'),
    },
    // the kubelet stand-in does not read Secrets: the pair's Secret as the controller wrote it
    podOptions: { secrets: [secret] },
    // two nodes in the stand-in's model: the standby's required anti-affinity keeps it off the primary's node
    nodes: { names: ['pair-node-a', 'pair-node-b'], down: new Set(), placedBy: new Set() },
    log: (l) => void log.push(l),
  });
  kubelet = kb;
  await kb.start(stop.signal);
  await waitFor(
    'both pods running',
    () => (kb.check(), kb.pod(NAME) !== undefined && kb.pod(STANDBY) !== undefined),
    {
      timeoutMs: 90_000,
      everyMs: 250,
    },
  );

  const first = await net.scope.createNamespace('vm1');
  await net.vlan.attach(first, {});
  // the pair syncs before the primary serves: a lease from the primary once it is in hot-standby
  let a = { ip: '', server: '' };
  await waitFor(
    'a lease from the primary',
    async () => {
      kb.check();
      a = await lease(first).catch(() => ({ ip: '', server: '' }));
      return a.server === PRIMARY_IP;
    },
    { timeoutMs: 90_000, everyMs: 500 },
  );
  const primary = kb.pod(NAME)!.container('oooi-dhcp').proc;
  const standby = kb.pod(STANDBY)!.container('oooi-dhcp').proc;
  // the standby follows the primary into hot-standby a moment later (it holds every lease from then on)
  await waitFor('the standby in hot-standby', () => standby.log().includes('"to":"hot-standby"'), {
    timeoutMs: 30_000,
    everyMs: 100,
  });

  const second = await net.scope.createNamespace('vm2');
  await net.vlan.attach(second, {});
  const t0 = Date.now();
  process.kill(primary.ref.pid, 'SIGKILL');
  const b = await lease(second);
  const took = Date.now() - t0;
  console.log(
    `pair takeover: a new client bound by the standby ${took} ms after SIGKILL of the primary's oooi-dhcp`,
  );
  expect(b.server).toBe(STANDBY_IP);
  expect(took).toBeLessThan(60_000); // generous: the machine is loaded (the defaults give about 3 s + retries)
  expect(b.ip).not.toBe(a.ip);
  // the first client asks again: the standby holds its lease, so it keeps its address
  const again = await lease(first);
  expect(again).toEqual({ ip: a.ip, server: STANDBY_IP });
});

async function waitForObject<T extends KubeObject>(
  w: ControllerWorld,
  kind: typeof SecretKind | typeof DeploymentKind,
  name: string,
): Promise<T> {
  let got: T | undefined;
  await waitFor(`${kind.kind} ${name}`, async () => (got = await w.get<T>(kind, name)) !== undefined, {
    timeoutMs: 30_000,
    everyMs: 200,
  });
  return got!;
}
