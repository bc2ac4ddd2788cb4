// The sandbox (README's first command, `./scripts/demo.sh`): the whole stack on this machine, then a VM that uses
// it. A throw-away control plane (the rig); the Helm chart installed into it (CRDs, ServiceAccount, RBAC, the
// operator Deployment); a kubelet stand-in (kubelet.ts) that runs every pod those Deployments ask for — the
// operator itself under the chart's ServiceAccount, then the workloads it writes for the examples' Infra: CoreDNS,
// oooi-dhcp, Envoy with oooi-xds, each on the VLAN at its static IP — each oooi container from its image with
// podman where podman is installed, else as processes (runtime.ts; the sandbox says which). The two hosted clusters are
// stand-ins (stand-ins.ts): a real apiserver each, reached as its kube-apiserver Service through a stand-in
// cluster DNS, registered as HyperShift would (HostedCluster + admin kubeconfig Secret), where the operator installs
// apps ingress; the sandbox plays MetalLB there and puts a router stand-in at each load balancer address on the
// VLAN. Once every object is Ready, a "VM" on the VLAN gets a DHCP lease, resolves api.<cluster>.<domain> from the
// VLAN view and calls its cluster's API through Envoy by SNI (HTTPS, the certificate verified against that
// cluster's CA), resolves a *.apps name (the cluster's MetalLB address) and gets its router's answer; a client pod
// on the pod network resolves the same names from the pod-network view (the proxy's ClusterIP) and gets each
// cluster's router through Envoy — HTTP by Host, TLS by SNI. It prints what a user would check and stops
// everything it started.
import { join } from 'node:path';
import { DeploymentKind, ServiceKind } from '@oooi/controller';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import {
  openNetScope,
  repoRoot,
  rigBin,
  rigDown,
  rigUp,
  run,
  waitFor,
  type NetScope,
  type Network,
} from '@oooi/rig';
import { chartDir, helmOk } from '../chart/chart-support';
import { kinds, NamespaceKind, User, type KindName } from '../controller/support';
import { startClusterDns } from './cluster-dns';
import { examples, workloadDeployments, type SandboxHa } from './examples';
import { NODE_MONITOR_GRACE_MS, SandboxKubelet, type SandboxNodes } from './kubelet';
import { ApiStatus, sandboxNodes } from './kubelet-status';
import { inspectContainers, sandboxRuntime, type ContainerView, type RuntimeChoice } from './runtime';
import { podChecks, vmChecks, type PodView, type VmView } from './checks';
import { dnsDiagnosis } from './diagnose';
import type { ServiceBackend } from './pod-client';
import {
  assignLoadBalancer,
  registerStandIn,
  startHostedStandIn,
  startRouter,
  type HostedStandIn,
} from './stand-ins';

export interface SandboxOptions extends SandboxHa {
  /** The rig run's name (its state under the rig cache's run/NAME; the hosted clusters' are NAME-hosted-*). */
  readonly name: string;
  /** One line for the user (stdout). */
  readonly say: (line: string) => void;
  /** Progress while waiting (stderr). */
  readonly progress: (line: string) => void;
  /** Called once everything is shown, before teardown (e.g. wait for Ctrl-C with --keep). */
  readonly beforeTeardown?: (kubeconfig: string, world: SandboxWorld) => Promise<void>;
  /** Aborted (Ctrl-C): the next wait or step stops, and everything started so far is torn down. */
  readonly signal?: AbortSignal;
  /**
   * How oooi's pods run (runtime.ts): `auto` (the default) from their images when podman is here, else as
   * processes; `podman` fails rather than fall back; `processes` never uses podman.
   */
  readonly runtime?: RuntimeChoice;
  /** How many nodes the kubelet stand-in places pods on (default 1: the rig's kwok node; more are registered). */
  readonly nodes?: number;
  /** Handed to the kubelet stand-in (the node lifecycle controller's grace period it models). */
  readonly nodeMonitorGraceMs?: number;
  /**
   * Who says in the API whether a pod is Ready: `kwok` (the default: at once, whatever runs) or `probes`: the
   * stand-in, from the containers' readinessProbes, on nodes of its own (kubelet-status.ts).
   */
  readonly readiness?: 'kwok' | 'probes';
}

/** What a caller may act on before teardown (the chaos harness of e2e/ha). */
export interface SandboxWorld {
  readonly kubeconfig: string;
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly admin: KubeClient;
  /** The kubelet stand-in of the workloads' namespace, and of every namespace. */
  readonly kubelet: SandboxKubelet;
  readonly kubelets: readonly SandboxKubelet[];
  readonly nodes: SandboxNodes;
  /** The stand-in's API side with `readiness: 'probes'`. */
  readonly apiStatus?: ApiStatus;
  /** The Infra as the sandbox applied it. */
  readonly infra: KubeObject;
  readonly clusters: readonly { readonly name: string; readonly domain: string; readonly caFile: string }[];
}

/** What the sandbox shows: every object's Ready, then what the VM and the client pod saw. */
export interface SandboxResult extends Omit<VmView, 'apps'> {
  /** Every Infra, attachment, DNSServer, DHCPServer and ProxyServer: `Kind/name Ready=<status> <reason>`. */
  readonly ready: readonly string[];
  readonly apps: { readonly vm: VmView['apps']; readonly pod: PodView };
  /** How oooi's pods ran, and each of their containers as podman saw it once every check had passed. */
  readonly runtime: 'podman' | 'processes';
  readonly containers: readonly ContainerView[];
}

const NS = 'clusters';
const INFRA = 'vlan100';
const OPERATOR_NS = 'oooi-system';
/** The examples' hosted clusters and the pod-network address of each one's kube-apiserver Service. */
const CLUSTERS = [
  { name: 'alpha', domain: 'alpha.example.com', apiServer: '203.0.113.10' },
  { name: 'bravo', domain: 'bravo.example.com', apiServer: '203.0.113.11' },
];
const CLUSTER_DNS = '203.0.113.53';
/** The client pod's address and the pod network's gateway (its default route, as the pod runner gives pods). */
const POD_CLIENT = '203.0.113.60/24';
const POD_GATEWAY = '203.0.113.1';
/** The ingress Service in each hosted cluster: the examples name none, so the controller's default. */
const INGRESS_SERVICE = 'oooi-ingress';
/** The kinds whose Ready the sandbox waits for and shows, and the objects of them the examples make. */
const READY_KINDS = ['Infra', 'InfraClusterAttachment', 'DNSServer', 'DHCPServer', 'ProxyServer'] as const;
const EXPECTED = [
  `Infra/${INFRA}`,
  ...CLUSTERS.map((c) => `InfraClusterAttachment/${c.name}`),
  `DNSServer/${INFRA}-dns`,
  `DHCPServer/${INFRA}-dhcp`,
  `ProxyServer/${INFRA}-proxy`,
];

/** A pod-network address per pod, handed out in order from .100. */
function podAddresses(): (deployment: string) => string {
  let next = 100;
  return () => `203.0.113.${next++}/24`;
}

/** `Kind/name Ready=<status> <reason>` of every object of READY_KINDS in NS. */
async function readiness(admin: KubeClient): Promise<string[]> {
  const out: string[] = [];
  for (const kind of READY_KINDS) {
    for (const obj of await admin.list(kinds[kind], { namespace: NS })) {
      const conditions = (obj.status as { conditions?: { type: string; status: string; reason?: string }[] })
        ?.conditions;
      const ready = conditions?.find((c) => c.type === 'Ready');
      out.push(
        `${kind}/${obj.metadata?.name ?? ''} Ready=${ready?.status ?? '-'} ${ready?.reason ?? ''}`.trim(),
      );
    }
  }
  return out;
}

export async function runSandbox(o: SandboxOptions): Promise<SandboxResult> {
  const t0 = Date.now();
  const step = (what: string) => {
    o.signal?.throwIfAborted();
    o.say(`\n# [${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);
  };
  const runtime = await sandboxRuntime(o.runtime ?? 'auto', o.progress);
  step(runtime.describe);
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
  const hostedRuns = CLUSTERS.map((c) => `${o.name}-hosted-${c.name}`);
  let hostedUp: Promise<HostedStandIn[]> | undefined;
  try {
    const kubectl = async (...args: string[]): Promise<string> => {
      const res = await run([await rigBin('kubectl'), '--kubeconfig', rig.kubeconfig, ...args]);
      if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
      return res.stdout.trimEnd();
    };
    const show = async (...args: string[]) => o.say(`$ kubectl ${args.join(' ')}\n${await kubectl(...args)}`);
    step('the VLAN 198.51.100.0/24 and the pod network 203.0.113.0/24 (network namespaces)');
    const [vlan, podNet] = await Promise.all([
      scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
      scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    ]);
    step(
      `the hosted clusters ${CLUSTERS.map((c) => c.name).join(' and ')} start meanwhile: a real apiserver each ` +
        `(rig runs ${hostedRuns.join(', ')}), its kube-apiserver Service on the pod network`,
    );
    hostedUp = Promise.all(
      CLUSTERS.map((c, i) =>
        startHostedStandIn(scope, podNet, {
          runName: hostedRuns[i]!,
          cluster: c.name,
          domain: c.domain,
          apiServer: c.apiServer,
          log: o.progress,
        }),
      ),
    );
    hostedUp.catch(() => undefined); // awaited below; the teardown waits for it as well
    step(
      'helm install oooi charts/oooi (CRDs, ServiceAccount, least-privilege RBAC, the operator Deployment)',
    );
    o.say(
      await helmOk(['install', 'oooi', chartDir, '-n', OPERATOR_NS, '--create-namespace'], rig.kubeconfig),
    );
    const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
    const admin = new KubeClient({ rest, fieldManager: 'sandbox-user' });
    step('the cluster DNS that names each hosted kube-apiserver Service');
    const clusterDns = await startClusterDns({
      scope,
      podNetwork: podNet,
      address: CLUSTER_DNS,
      records: Object.fromEntries(
        CLUSTERS.map((c) => [`kube-apiserver.${NS}-${c.name}.svc.cluster.local`, c.apiServer]),
      ),
    });
    step(
      `a kubelet stand-in runs every pod the oooi Deployments ask for, ${runtime.kind === 'podman' ? 'each container from its image (podman)' : 'as processes of this machine'}`,
    );
    const address = podAddresses();
    const nodes = await sandboxNodes(admin, rest, o.nodes ?? 1, o.readiness === 'probes');
    for (const namespace of [OPERATOR_NS, NS]) {
      const k = new SandboxKubelet({
        scope,
        adminKubeconfig: rig.kubeconfig,
        namespace,
        runtime,
        vlan,
        podNetwork: { network: podNet, address },
        podOptions: { resolvConf: clusterDns.resolvConf(namespace) },
        nodes,
        ...(o.nodeMonitorGraceMs !== undefined ? { nodeMonitorGraceMs: o.nodeMonitorGraceMs } : {}),
        log: o.progress,
      });
      await k.start(stop.signal);
      kubelets.push(k);
    }
    const grace = o.nodeMonitorGraceMs ?? NODE_MONITOR_GRACE_MS;
    const apiStatus =
      o.readiness === 'probes'
        ? new ApiStatus({
            rest,
            namespace: NS,
            nodes,
            kubelet: kubelets[1]!,
            nodeMonitorGraceMs: grace,
            log: o.progress,
          })
        : undefined;
    apiStatus?.start(stop.signal);
    // The hosted clusters' control-plane namespaces (`<namespace>-<name>` of each HostedCluster, which HyperShift
    // makes): oooi-dhcp reads the VMIs there, and the controller writes its VMI-reader Roles into them.
    for (const name of [NS, ...CLUSTERS.map((c) => `${NS}-${c.name}`)])
      await admin.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const hosted = await hostedUp;
    step(
      `what HyperShift keeps for each hosted cluster: HostedCluster ${NS}/<name> and its admin kubeconfig ` +
        'Secret (server https://api.<domain>:6443)',
    );
    const user = new User(rest);
    for (const h of hosted) await registerStandIn(user, NS, h);
    await show('-n', NS, 'get', 'hostedclusters,secrets');
    step('kubectl apply -f examples/infra.yaml -f examples/attachments.yaml');
    const applied = examples(o);
    for (const obj of applied) await admin.apply(kinds[obj.kind as KindName], obj, { force: true });
    step('waiting for the operator to converge and the three workloads to run');
    const workloads = workloadDeployments(INFRA, o);
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
    step(
      'waiting for every object to be Ready; the operator installs apps ingress in each hosted cluster ' +
        `(MetalLB, its pool, the Service ${INGRESS_SERVICE}), the sandbox plays MetalLB there and starts a ` +
        "router stand-in at the Service's address on the VLAN",
    );
    const routers = new Map<string, string>();
    let ready: string[] = [];
    let shown = '';
    await waitFor(
      'every Infra, attachment, DNSServer, DHCPServer and ProxyServer Ready',
      async () => {
        for (const k of kubelets) k.check();
        for (const h of hosted) {
          if (routers.has(h.cluster)) continue;
          const ip = await assignLoadBalancer(h, INGRESS_SERVICE);
          if (ip === undefined) continue;
          await startRouter(scope, vlan, { cluster: h.cluster, address: ip });
          routers.set(h.cluster, ip);
          o.say(
            `MetalLB (stand-in): ${h.cluster}'s Service ${INGRESS_SERVICE} got ${ip}; ${h.cluster}'s router answers there`,
          );
        }
        ready = await readiness(admin);
        const seen = new Set(ready.map((r) => r.split(' ')[0]));
        const notReady = [
          ...ready.filter((r) => !r.includes(' Ready=True')),
          ...EXPECTED.filter((e) => !seen.has(e)).map((e) => `${e} (not there)`),
        ].join('; ');
        if (notReady !== shown && notReady !== '') o.progress(`  not Ready yet: ${notReady}`);
        shown = notReady;
        return notReady === '';
      },
      { timeoutMs: 240_000, everyMs: 2000, signal: o.signal },
    );
    await show('-n', NS, 'get', 'infras,infraclusterattachments,dhcpservers,dnsservers,proxyservers');
    await show('-n', NS, 'get', 'deployments,services,configmaps');
    const cond = (field: string) => `{.status.conditions[?(@.type=="Ready")].${field}}`;
    for (const kind of READY_KINDS) {
      await show(
        '-n',
        NS,
        'get',
        kinds[kind].plural,
        `-o=custom-columns=${kind.toUpperCase()}:.metadata.name,READY:${cond('status')},REASON:${cond('reason')},MESSAGE:${cond('message')}`,
      );
    }
    const alpha = hosted[0]!;
    const diagnose = dnsDiagnosis({
      admin,
      namespace: NS,
      dnsServer: `${INFRA}-dns`,
      configMap: `${INFRA}-dns-config`,
      pod: () => kubelets[1]!.pod(`${INFRA}-dns`),
      operatorLog: () => {
        const dir = kubelets[0]!.pod('oooi')?.dir;
        return dir && join(dir, 'controller.log');
      },
    });
    const ctx = { scope, say: o.say, signal: o.signal, diagnose };
    const vm = await vmChecks({
      ...ctx,
      vlan,
      step,
      cluster: { name: alpha.cluster, domain: alpha.domain, caFile: alpha.caFile },
    });
    step(
      'a client pod on the pod network (kube-proxy played by iptables in its namespace) asks the ' +
        "pod-network view for each cluster's *.apps name and calls it: HTTP by Host and TLS by SNI, through Envoy",
    );
    const backend = (name: string) => serviceBackend(admin, kubelets[1]!, name);
    const pod = await podChecks({
      ...ctx,
      podNet,
      address: POD_CLIENT,
      gateway: POD_GATEWAY,
      dns: await backend(`${INFRA}-dns`),
      proxy: await backend(`${INFRA}-proxy`),
      clusters: hosted.map((h) => ({ name: h.cluster, domain: h.domain })),
    });
    const containers = await inspectContainers(kubelets.flatMap((k) => k.pods()));
    o.say(
      `\n# oooi's containers (${runtime.kind}):\n${containers.map((c) => `${c.container} ${c.id?.slice(0, 12) ?? 'process'} ${c.image ?? ''}`.trimEnd()).join('\n')}`,
    );
    await o.beforeTeardown?.(rig.kubeconfig, {
      kubeconfig: rig.kubeconfig,
      scope,
      vlan,
      admin,
      kubelet: kubelets[1]!,
      kubelets,
      nodes,
      ...(apiStatus ? { apiStatus } : {}),
      infra: applied.find((x) => x.kind === 'Infra')!,
      clusters: hosted.map((h) => ({ name: h.cluster, domain: h.domain, caFile: h.caFile })),
    });
    return { ...vm, ready, apps: { vm: vm.apps, pod }, runtime: runtime.kind, containers };
  } finally {
    stop.abort();
    for (const k of kubelets) await k.stop();
    const hosted = await hostedUp?.catch(() => []);
    for (const h of hosted ?? []) await h.hosted.down();
    await scope.dispose();
    await rigDown(o.name);
    for (const r of hostedRuns) await rigDown(r);
    o.progress('sandbox: every process and namespace it started is gone');
  }
}

/** Service NAME in NS, its Deployment and the pod the kubelet runs for it. */
async function serviceBackend(
  admin: KubeClient,
  kubelet: SandboxKubelet,
  name: string,
): Promise<ServiceBackend> {
  const [service, deployment] = await Promise.all([
    admin.get(ServiceKind, { namespace: NS, name }),
    admin.get(DeploymentKind, { namespace: NS, name }),
  ]);
  const pod = kubelet.pod(name);
  if (!service || !deployment || !pod) throw new Error(`no Service, Deployment or pod ${NS}/${name}`);
  return { service, deployment, podIP: pod.podIP };
}
