// A second real apiserver standing in for a hosted cluster (`rigUp` named `<run>-hosted…`, swept with the run),
// started without the MetalLB CRDs (OLM's Subscription only, as on a fresh OpenShift cluster; `withMetalLB` serves
// them from the start, as once OLM has installed the MetalLB operator), plus what HyperShift would put in the
// management cluster for it: a HostedCluster whose status names an admin kubeconfig Secret. The kubeconfig names
// the apiserver as `https://localhost:<port>` (a name its certificate carries); the controller rewrites that to
// `kube-apiserver.<control-plane ns>.svc.cluster.local`, which only the test-only resolver below maps to
// 127.0.0.1 — the TLS server name stays `localhost` and the certificate is verified.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KindDescriptor, type KubeObject } from '@oooi/kube';
import { FAKE_NODE, e2eEnv, fakeNode, readCrds, repoRoot, rigDown, rigUp, type Rig } from '@oooi/rig';
import { until, type User } from '../controller/support';

const crdDir = join(repoRoot, 'e2e', 'third-party-crds');

export const hostedKinds = {
  Node: { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false },
  Namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  Service: { group: '', version: 'v1', plural: 'services', kind: 'Service' },
  Subscription: {
    group: 'operators.coreos.com',
    version: 'v1alpha1',
    plural: 'subscriptions',
    kind: 'Subscription',
  },
  MetalLB: { group: 'metallb.io', version: 'v1beta1', plural: 'metallbs', kind: 'MetalLB' },
  IPAddressPool: { group: 'metallb.io', version: 'v1beta1', plural: 'ipaddresspools', kind: 'IPAddressPool' },
  L2Advertisement: {
    group: 'metallb.io',
    version: 'v1beta1',
    plural: 'l2advertisements',
    kind: 'L2Advertisement',
  },
  CRD: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
  },
} satisfies Record<string, KindDescriptor>;

/** FOR TESTS ONLY: every `*.svc.cluster.local` name is this machine's loopback; anything else as usual. */
export const lookupForTests: LookupFunction = (hostname, options, callback) => {
  if (!hostname.endsWith('.svc.cluster.local')) {
    dnsLookup(hostname, options, callback as never);
    return;
  }
  if (options.all) {
    (callback as (err: null, addresses: LookupAddress[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  } else callback(null, '127.0.0.1', 4);
};

export interface Hosted {
  readonly rig: Rig;
  /** A user of the hosted cluster (its own field manager). */
  readonly client: KubeClient;
  /** The admin kubeconfig as HyperShift would store it (server `https://localhost:<port>`). */
  readonly kubeconfig: string;
  get(kind: keyof typeof hostedKinds, namespace: string, name: string): Promise<KubeObject | undefined>;
  apply(kind: keyof typeof hostedKinds, obj: KubeObject): Promise<void>;
  /** Writes a Service's load balancer status, as MetalLB would. */
  setLoadBalancer(namespace: string, name: string, ingress: object[]): Promise<void>;
  /** Installs the MetalLB CRDs and waits for them to be served. */
  installMetalLBCrds(): Promise<void>;
  /** Deletes the rig's node, so no node is Ready. */
  dropNodes(): Promise<void>;
  /** Adds a node kwok keeps Ready. */
  addReadyNode(): Promise<void>;
  down(): Promise<void>;
}

export interface HostedOptions {
  /** The MetalLB operator's CRDs served from the start, as once OLM installed it (default: OLM's Subscription only). */
  readonly withMetalLB?: boolean;
  /** Extra DNS names of its apiserver's certificate (`api.<domain>`, as a hosted kube-apiserver's names its host). */
  readonly servingNames?: readonly string[];
  /** Progress lines of its start. */
  readonly log?: (line: string) => void;
}

/** The hosted cluster of an e2e test: rig run `<the e2e run>-<suffix>`, swept with it. */
export function startHosted(suffix: string, o: HostedOptions = {}): Promise<Hosted> {
  return startHostedRun(`${e2eEnv().rig}-${suffix}`, o);
}

/** A hosted cluster as rig run RUN_NAME (the sandbox's, outside jest). */
export async function startHostedRun(runName: string, o: HostedOptions = {}): Promise<Hosted> {
  const crds = mkdtempSync(join(tmpdir(), 'oooi-hosted-crds-'));
  const files = ['operators.coreos.com_subscriptions.yaml'];
  if (o.withMetalLB) files.push(...readdirSync(crdDir).filter((f) => f.startsWith('metallb.io_')));
  for (const f of files) copyFileSync(join(crdDir, f), join(crds, f));
  const rig = await rigUp({
    name: runName,
    crdDirs: [crds],
    ...(o.servingNames ? { servingNames: o.servingNames } : {}),
    ...(o.log ? { log: o.log } : {}),
  }).finally(() => rmSync(crds, { recursive: true, force: true }));
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  const client = new KubeClient({ rest, fieldManager: 'e2e-hosted-user' });
  const kubeconfig = readFileSync(rig.kubeconfig, 'utf8').replace(
    /server: https:\/\/127\.0\.0\.1:/,
    'server: https://localhost:',
  );
  if (!kubeconfig.includes('https://localhost:')) throw new Error('hosted kubeconfig: server not rewritten');
  const hosted: Hosted = {
    rig,
    client,
    kubeconfig,
    get: (kind, namespace, name) => client.get(hostedKinds[kind], { namespace, name }),
    apply: async (kind, obj) => {
      await client.apply(hostedKinds[kind], obj, { force: true });
    },
    setLoadBalancer: async (namespace, name, ingress) => {
      const body = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace },
        status: { loadBalancer: { ingress } },
      };
      await client.applyStatus(hostedKinds.Service, body, { force: true });
    },
    installMetalLBCrds: async () => {
      const crds = (await readCrds([crdDir])).filter((c) => c.name.endsWith('.metallb.io'));
      for (const c of crds) await client.apply(hostedKinds.CRD, c.obj as KubeObject, { force: true });
      for (const c of crds) {
        await until(
          `CRD ${c.name} Established`,
          () => client.get(hostedKinds.CRD, { name: c.name }),
          (o) =>
            ((o?.status as { conditions?: { type: string; status: string }[] })?.conditions ?? []).some(
              (x) => x.type === 'Established' && x.status === 'True',
            ),
        );
      }
    },
    dropNodes: async () => {
      await client.delete(hostedKinds.Node, { name: FAKE_NODE });
    },
    addReadyNode: async () => {
      const { status: _s, ...node } = fakeNode(FAKE_NODE) as KubeObject & { status?: unknown };
      await client.apply(hostedKinds.Node, node, { force: true });
    },
    down: async () => {
      rest.close();
      await rigDown(rig.name);
    },
  };
  for (const name of ['openshift-operators', 'openshift-ingress']) {
    await hosted.apply('Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  return hosted;
}

/** What HyperShift keeps in the management cluster for a hosted cluster: the HostedCluster and its kubeconfig. */
export async function registerHostedCluster(
  user: User,
  o: { namespace: string; name: string; kubeconfig: string },
): Promise<void> {
  const secret = `${o.name}-admin-kubeconfig`;
  await user.apply('Secret', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secret, namespace: o.namespace },
    data: { kubeconfig: Buffer.from(o.kubeconfig).toString('base64') },
  });
  await user.apply('HostedCluster', {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name: o.name, namespace: o.namespace },
    spec: { platform: { type: 'KubeVirt' } },
    status: { kubeconfig: { name: secret } },
  });
}
