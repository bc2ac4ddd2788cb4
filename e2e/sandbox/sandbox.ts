// The sandbox (README's first command, `./scripts/demo.sh`): the whole stack on this machine, then a VM that uses
// it. A throw-away control plane (the rig); the Helm chart installed into it (CRDs, ServiceAccount, RBAC, the
// operator Deployment); a kubelet stand-in (kubelet.ts) that runs, as real processes, every pod those Deployments
// ask for — the operator itself under the chart's ServiceAccount, then the workloads it writes for the examples'
// Infra: CoreDNS, oooi-dhcp, Envoy with oooi-xds, each on the VLAN at its static IP; openssl servers standing in
// for the hosted clusters' kube-apiservers on the pod network, found through a stand-in cluster DNS. Then a "VM"
// on the VLAN gets a DHCP lease, resolves api.<cluster>.<domain> from the VLAN view and opens TLS through Envoy
// by SNI to its cluster's API server stand-in. It prints what a user would check and stops everything it started.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import {
  dhcpLease,
  dig,
  openNetScope,
  repoRoot,
  rigBin,
  rigDown,
  rigUp,
  run,
  waitFor,
  type NetScope,
  type Netns,
} from '@oooi/rig';
import { chartDir, helmOk } from '../chart/chart-support';
import { kinds, NamespaceKind, type KindName } from '../controller/support';
import { startClusterDns } from './cluster-dns';
import { SandboxKubelet } from './kubelet';
import { startApiStandIn } from './stand-ins';

export interface SandboxOptions {
  /** The rig run's name (its state under the rig cache's run/NAME). */
  readonly name: string;
  /** One line for the user (stdout). */
  readonly say: (line: string) => void;
  /** Progress while waiting (stderr). */
  readonly progress: (line: string) => void;
  /** Called once everything is shown, before teardown (e.g. wait for Ctrl-C with --keep). */
  readonly beforeTeardown?: (kubeconfig: string) => Promise<void>;
  /** Aborted (Ctrl-C): the next wait or step stops, and everything started so far is torn down. */
  readonly signal?: AbortSignal;
}

/** What the VM saw: the outcome a user checks. */
export interface SandboxResult {
  readonly lease: { readonly ip: string; readonly router?: string; readonly dns?: string };
  readonly dns: { readonly name: string; readonly server: string; readonly answers: readonly string[] };
  readonly tls: { readonly sni: string; readonly address: string; readonly peer: string };
}

const NS = 'clusters';
const INFRA = 'vlan100';
const OPERATOR_NS = 'oooi-system';
/** The examples' hosted clusters and the pod-network address of each one's API server stand-in. */
const CLUSTERS = [
  { name: 'alpha', domain: 'alpha.example.com', apiServer: '203.0.113.10' },
  { name: 'bravo', domain: 'bravo.example.com', apiServer: '203.0.113.11' },
];
const CLUSTER_DNS = '203.0.113.53';

function examples(): KubeObject[] {
  return ['infra.yaml', 'attachments.yaml'].flatMap((f) =>
    parseAllDocuments(readFileSync(join(repoRoot, 'examples', f), 'utf8')).map((d) => d.toJS() as KubeObject),
  );
}

/** A pod-network address per pod, handed out in order from .100. */
function podAddresses(): (deployment: string) => string {
  let next = 100;
  return () => `203.0.113.${next++}/24`;
}

export async function runSandbox(o: SandboxOptions): Promise<SandboxResult> {
  const t0 = Date.now();
  const step = (what: string) => {
    o.signal?.throwIfAborted();
    o.say(`\n# [${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);
  };
  step('starting a control plane (etcd, kube-apiserver, controller-manager, scheduler, kwok)');
  // Our CRDs come from the chart; the third-party kinds the controller reads (HostedCluster, NodePool, Machine…)
  // stand for what HyperShift and KubeVirt install.
  const rig = await rigUp({
    name: o.name,
    crdDirs: [join(repoRoot, 'e2e/third-party-crds')],
    log: o.progress,
  });
  const scope = openNetScope(o.name);
  const kubelets: SandboxKubelet[] = [];
  const stop = new AbortController();
  try {
    const kubectl = async (...args: string[]): Promise<string> => {
      const res = await run([await rigBin('kubectl'), '--kubeconfig', rig.kubeconfig, ...args]);
      if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
      return res.stdout.trimEnd();
    };
    const show = async (...args: string[]) => o.say(`$ kubectl ${args.join(' ')}\n${await kubectl(...args)}`);
    step(
      'helm install oooi charts/oooi (CRDs, ServiceAccount, least-privilege RBAC, the operator Deployment)',
    );
    o.say(
      await helmOk(['install', 'oooi', chartDir, '-n', OPERATOR_NS, '--create-namespace'], rig.kubeconfig),
    );
    const admin = new KubeClient({
      rest: new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) }),
      fieldManager: 'sandbox-user',
    });
    step('the VLAN 198.51.100.0/24 and the pod network 203.0.113.0/24 (network namespaces)');
    const [vlan, podNet] = await Promise.all([
      scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
      scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    ]);
    step("stand-ins for each hosted cluster's kube-apiserver, and the cluster DNS that names them");
    for (const c of CLUSTERS) await startApiStandIn(scope, podNet, { cluster: c.name, address: c.apiServer });
    const clusterDns = await startClusterDns({
      scope,
      podNetwork: podNet,
      address: CLUSTER_DNS,
      records: Object.fromEntries(
        CLUSTERS.map((c) => [`kube-apiserver.clusters-${c.name}.svc.cluster.local`, c.apiServer]),
      ),
    });
    step('a kubelet stand-in runs every pod the oooi Deployments ask for, as real processes');
    const address = podAddresses();
    for (const namespace of [OPERATOR_NS, NS]) {
      const k = new SandboxKubelet({
        scope,
        adminKubeconfig: rig.kubeconfig,
        namespace,
        vlan,
        podNetwork: { network: podNet, address },
        podOptions: { resolvConf: clusterDns.resolvConf(namespace) },
        log: o.progress,
      });
      await k.start(stop.signal);
      kubelets.push(k);
    }
    step('kubectl apply -f examples/infra.yaml -f examples/attachments.yaml');
    // The hosted clusters' control-plane namespaces (`<namespace>-<name>` of each HostedCluster, which HyperShift
    // makes): oooi-dhcp reads the VMIs there, and the controller writes its VMI-reader Roles into them.
    for (const name of [NS, ...CLUSTERS.map((c) => `${NS}-${c.name}`)])
      await admin.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    for (const obj of examples()) await admin.apply(kinds[obj.kind as KindName], obj, { force: true });
    step('waiting for the operator to converge and the three workloads to run');
    const workloads = [`${INFRA}-dns`, `${INFRA}-dhcp`, `${INFRA}-proxy`];
    let waiting = '';
    await waitFor(
      'the DNS, DHCP and proxy pods running',
      () => {
        for (const k of kubelets) k.check();
        const missing = workloads.filter((w) => kubelets[1]!.pod(w) === undefined).join(', ');
        if (missing !== waiting && missing !== '') o.progress(`  waiting for the pods of: ${missing}`);
        waiting = missing;
        return missing === '';
      },
      { timeoutMs: 180_000, everyMs: 2000, signal: o.signal },
    );
    await show('-n', NS, 'get', 'infras,infraclusterattachments,dhcpservers,dnsservers,proxyservers');
    await show('-n', NS, 'get', 'deployments,services,configmaps');
    // Why an attachment is not Ready here: its apps ingress needs a HostedCluster, which this sandbox does not have.
    const cond = (field: string) => `{.status.conditions[?(@.type=="Ready")].${field}}`;
    await show(
      '-n',
      NS,
      'get',
      'infraclusterattachments',
      `-o=custom-columns=NAME:.metadata.name,READY:${cond('status')},REASON:${cond('reason')},MESSAGE:${cond('message')}`,
    );
    const result = await vmChecks({ scope, vlan, step, say: o.say, signal: o.signal });
    await o.beforeTeardown?.(rig.kubeconfig);
    return result;
  } finally {
    stop.abort();
    for (const k of kubelets) await k.stop();
    await scope.dispose();
    await rigDown(o.name);
    o.progress('sandbox: every process and namespace it started is gone');
  }
}

/** The VM's view: lease, DNS answer, TLS peer (each step waits, bounded, for the service to answer). */
async function vmChecks({
  scope,
  vlan,
  step,
  say,
  signal,
}: {
  scope: NetScope;
  vlan: Awaited<ReturnType<NetScope['createNetwork']>>;
  step: (what: string) => void;
  say: (line: string) => void;
  signal: AbortSignal | undefined;
}): Promise<SandboxResult> {
  const vm: Netns = await scope.createNamespace('vm-alpha-0');
  await vlan.attach(vm, {});
  step('a VM on the VLAN asks for a DHCP lease (udhcpc)');
  let leased: Awaited<ReturnType<typeof dhcpLease>> | undefined;
  await waitFor(
    'a DHCP lease',
    async () => {
      leased = await dhcpLease(scope, vm, { client: 'udhcpc', timeoutSec: 10 }).catch(() => undefined);
      return leased?.ip !== undefined;
    },
    { timeoutMs: 120_000, everyMs: 1000, signal },
  );
  const lease = { ip: leased!.ip, router: leased!.vars.router, dns: leased!.vars.dns };
  say(`lease: ${lease.ip} router ${lease.router ?? '-'} dns ${lease.dns ?? '-'}`);
  const cluster = CLUSTERS[0]!;
  const name = `api.${cluster.domain}`;
  const server = (lease.dns ?? '').split(/\s+/)[0] ?? '';
  step(`the VM resolves ${name} from the VLAN view (dig @${server})`);
  let answers: string[] = [];
  await waitFor(
    'a DNS answer',
    async () => {
      const a = await dig(vm, { server, name });
      answers = a.answers;
      return a.status === 'NOERROR' && answers.length > 0;
    },
    { timeoutMs: 60_000, everyMs: 1000, signal },
  );
  say(`dns: ${name} A ${answers.join(', ')}`);
  const target = answers[0]!;
  step(`the VM opens TLS to ${target}:6443 with SNI ${name}, through Envoy`);
  let peer = '';
  await waitFor(
    'a TLS handshake through Envoy',
    async () => {
      peer = await tlsPeer(vm, target, 6443, name);
      return peer !== '';
    },
    { timeoutMs: 60_000, everyMs: 1000, signal },
  );
  say(`tls: ${name} via ${target}:6443 -> peer certificate CN=${peer}`);
  return { lease, dns: { name, server, answers }, tls: { sni: name, address: target, peer } };
}

/** The CN of the certificate the server at ADDRESS:PORT presents for SNI; '' when the handshake fails. */
async function tlsPeer(ns: Netns, address: string, port: number, sni: string): Promise<string> {
  const r = await ns.exec(
    [await rigBin('openssl'), 's_client', '-connect', `${address}:${port}`, '-servername', sni, '-brief'],
    { input: '', timeoutMs: 8_000 },
  );
  return /CN\s*=\s*([^,\n]+)/.exec(`${r.stdout}\n${r.stderr}`)?.[1]?.trim() ?? '';
}
