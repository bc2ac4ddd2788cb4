// The data-plane pods' NetworkPolicies on the rig's real apiserver (docs/network-policy.md), with the controller wired
// as in production: the Infra's three children and a standalone ProxyServer each get a NetworkPolicy the apiserver
// accepts, exactly what the pure renderers give for the stored object, controlled by that child; a converged pass
// writes none of them again; a ProxyServer port change changes its policy's ports; the garbage collector removes a
// policy with its owner; the controller run with the policies off deletes the ones it wrote, and run with them on
// again writes them back. No CNI on the rig enforces NetworkPolicy: this proves the objects, not the traffic.
import { setMaxListeners } from 'node:events';
import type { DHCPServer, DNSServer, ProxyServer } from '@oooi/api';
import {
  NetworkPolicyKind,
  builtinImages,
  fieldManager,
  planDhcpServer,
  planDnsServer,
  planProxyServer,
  wireControllers,
  type NetworkPolicyOptions,
} from '@oooi/controller';
import { Manager, systemClock, type KubeObject } from '@oooi/kube';
import { infra } from './objects';
import { CountingRest, User, kinds, makeNamespaces, restForRig, until, type KindName } from './support';

jest.setTimeout(180_000);

const ns = `ctl-netpol-${process.pid}`;
let user: User;
let cleanup: () => Promise<void>;
let ctl: Controller | undefined;

interface Controller {
  readonly rest: CountingRest;
  stop(): Promise<void>;
}

/** The controller as startController runs it, with the NetworkPolicy options the flags would give. */
async function start(networkPolicy?: NetworkPolicyOptions): Promise<Controller> {
  const rest = new CountingRest(await restForRig());
  const clock = systemClock();
  const manager = new Manager({ rest, component: 'controller', fieldManager, clock });
  wireControllers({
    manager,
    namespace: ns,
    images: builtinImages,
    clock,
    served: { nodePools: true, machines: true },
    instance: `e2e-${ns}`,
    ...(networkPolicy ? { networkPolicy } : {}),
  });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  await manager.start(stop.signal);
  return {
    rest,
    stop: async () => {
      stop.abort();
      await manager.whenStopped();
    },
  };
}

const policy = (name: string) => user.client.get(NetworkPolicyKind, { namespace: ns, name });
const policyWrites = (c: Controller) =>
  c.rest
    .writes()
    .filter((w) => w.path.includes('/networkpolicies/'))
    .map((w) => `${w.method} ${w.path.split('/').at(-1)}`);

interface PolicySpec {
  podSelector: unknown;
  policyTypes: string[];
  ingress?: { from?: unknown; ports: { protocol: string; port: number }[] }[];
}
const specOf = (o: KubeObject | undefined) => o?.spec as PolicySpec | undefined;
const openPorts = (o: KubeObject | undefined) =>
  (specOf(o)?.ingress ?? []).filter((r) => r.from === undefined).flatMap((r) => r.ports);

/** A standalone ProxyServer on the VLAN, backends on PORTS (each a TCP listener). */
function edgeProxy(ports: number[]): KubeObject {
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name: 'edge', namespace: ns },
    spec: {
      networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.9', networkAttachmentName: 'vlan100' },
      backends: ports.map((port) => ({
        name: `b${port}`,
        hostname: `api.b${port}.example.com`,
        port,
        targetService: 'kube-apiserver',
        targetPort: 6443,
        targetNamespace: `${ns}-b${port}`,
      })),
    },
  };
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await start();
  await user.apply('Infra', infra(ns));
  await user.apply('ProxyServer', edgeProxy([443]));
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('every data-plane child gets the NetworkPolicy its renderer gives, accepted and controlled by it', async () => {
  const stored = async (kind: KindName, name: string) => {
    const o = await until(
      `${kind} ${name}`,
      () => user.get(kind, ns, name),
      (x) => x !== undefined,
    );
    return o!;
  };
  const dhcp = await stored('DHCPServer', 'vlan100-dhcp');
  const dns = await stored('DNSServer', 'vlan100-dns');
  const proxy = await stored('ProxyServer', 'vlan100-proxy');
  const edge = await stored('ProxyServer', 'edge');
  const cases: [KubeObject, KubeObject | undefined][] = [];
  const d = planDhcpServer(dhcp as unknown as DHCPServer);
  const n = planDnsServer(dns as unknown as DNSServer);
  const p = planProxyServer(proxy as unknown as ProxyServer);
  const e = planProxyServer(edge as unknown as ProxyServer);
  if (!d.ok || !n.ok || !p.ok || !e.ok) throw new Error('a child does not render');
  cases.push(
    [dhcp, d.value.children.networkPolicy],
    [dns, n.value.children.networkPolicy],
    [proxy, p.value.children.networkPolicy],
    [edge, e.value.children.networkPolicy],
  );
  for (const [owner, want] of cases) {
    const name = owner.metadata!.name!;
    const live = await until(
      `the NetworkPolicy of ${name}`,
      () => policy(name),
      (x) => x !== undefined,
    );
    expect({ name, spec: live?.spec }).toEqual({ name, spec: want?.spec });
    expect(live?.metadata?.labels).toEqual(want?.metadata?.labels);
    expect(live?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: owner.kind, name, uid: owner.metadata!.uid, controller: true }),
    ]);
    expect(specOf(live)?.policyTypes).toEqual(['Ingress']);
  }
  // What the apiserver stored: DHCP admits its metrics port only, never 67/68; DNS serves 53 to anyone.
  expect(JSON.stringify(specOf(await policy('vlan100-dhcp')))).not.toMatch(/"port":6[78]\b|UDP/);
  expect(openPorts(await policy('vlan100-dns'))).toEqual([
    { protocol: 'TCP', port: 53 },
    { protocol: 'UDP', port: 53 },
  ]);
  expect(openPorts(await policy('edge'))).toEqual([{ protocol: 'TCP', port: 443 }]);
});

test('a converged pass writes no NetworkPolicy; a ProxyServer port change changes its policy only', async () => {
  await until(
    'the edge policy',
    () => policy('edge'),
    (x) => x !== undefined,
  );
  const before = policyWrites(ctl!).length;
  // A user's annotation on the owner makes its reconciler pass again; nothing of the policy changes.
  const edge = (await user.get('ProxyServer', ns, 'edge'))!;
  await user.client.mergePatch(
    kinds.ProxyServer,
    { namespace: ns, name: 'edge' },
    { metadata: { annotations: { 'e2e.example.com/touched': 'yes' } } },
  );
  await until(
    'the edge ProxyServer reconciled after the touch',
    () => user.get('ProxyServer', ns, 'edge'),
    (o) => o?.metadata?.resourceVersion !== edge.metadata?.resourceVersion,
  );
  await new Promise((r) => setTimeout(r, 2_000));
  expect(policyWrites(ctl!).slice(before)).toEqual([]);

  await user.apply('ProxyServer', edgeProxy([443, 8443, 6443]));
  const changed = await until(
    'the edge policy with the new listener ports',
    () => policy('edge'),
    (o) => openPorts(o).length === 3,
  );
  expect(openPorts(changed)).toEqual([
    { protocol: 'TCP', port: 443 },
    { protocol: 'TCP', port: 6443 },
    { protocol: 'TCP', port: 8443 },
  ]);
  expect(policyWrites(ctl!).slice(before)).toEqual(['PATCH edge']);
});

test('the policies off: the controller deletes the ones it wrote; on again: written back', async () => {
  await ctl!.stop();
  ctl = await start({ enabled: false, metricsNamespaces: [] });
  for (const name of ['vlan100-dhcp', 'vlan100-dns', 'vlan100-proxy', 'edge'])
    await until(
      `the ${name} policy deleted`,
      () => policy(name),
      (x) => x === undefined,
    );
  // A pass that runs before the cache has seen a delete may send it again (a 404, harmless): compared as a set.
  expect([...new Set(policyWrites(ctl))].sort()).toEqual([
    'DELETE edge',
    'DELETE vlan100-dhcp',
    'DELETE vlan100-dns',
    'DELETE vlan100-proxy',
  ]);
  await ctl.stop();
  ctl = await start({ enabled: true, metricsNamespaces: ['monitoring'] });
  const back = await until(
    'the edge policy back',
    () => policy('edge'),
    (x) => x !== undefined,
  );
  expect(specOf(back)?.ingress?.[1]).toEqual({
    from: [
      {
        namespaceSelector: {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['monitoring'] }],
        },
      },
    ],
    // the sidecar's /metrics and Envoy's stats listener
    ports: [
      { protocol: 'TCP', port: 9902 },
      { protocol: 'TCP', port: 18001 },
    ],
  });
});

test('a policy goes with its owner (garbage collection through the owner reference)', async () => {
  await until(
    'the edge policy',
    () => policy('edge'),
    (x) => x !== undefined,
  );
  await user.delete('ProxyServer', ns, 'edge');
  await until(
    'the edge policy collected',
    () => policy('edge'),
    (x) => x === undefined,
    90_000,
  );
});
