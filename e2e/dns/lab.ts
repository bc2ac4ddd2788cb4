// The network of the DNS e2e tests, all inside namespaces the test creates (never the root namespace): a VLAN
// (198.51.100.0/24) and a pod network (203.0.113.0/24), a client on each, and an upstream stub resolver on the pod
// network (a second CoreDNS that answers every A query with UPSTREAM_ANSWER), so forwarding never leaves the lab.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  e2eEnv,
  nsidOf,
  openNetScope,
  rigBin,
  runPod,
  waitFor,
  type NetScope,
  type Netns,
  type Network,
  type RunningPod,
  type TrackedProc,
} from '@oooi/rig';
import { UPSTREAM_ANSWER } from './reference';

export const VLAN_CLIENT = '198.51.100.50/24';
export const POD_CLIENT = '203.0.113.50/24';
export const UPSTREAM_IP = '203.0.113.53';
/** The DNS pod's pod-network address (its VLAN address comes from the Deployment's Multus annotation). */
export const DNS_POD_ADDRESS = '203.0.113.3/24';

const stubCorefile = `.:53 {
    template IN A {
        answer "{{ .Name }} 60 IN A ${UPSTREAM_ANSWER}"
    }
    template IN AAAA {
        rcode NOERROR
    }
    log
}
`;

export interface DnsLab {
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly pod: Network;
  readonly vlanClient: Netns;
  readonly podClient: Netns;
  readonly upstream: TrackedProc;
  dispose(): Promise<void>;
}

/** Builds the lab under rig run OWNER (e2eEnv().rig); dispose() removes every namespace and process. */
export async function openDnsLab(owner: string): Promise<DnsLab> {
  const scope = openNetScope(owner);
  try {
    const [vlan, pod] = await Promise.all([
      scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
      scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    ]);
    const [vlanClient, podClient, stubNs] = await Promise.all([
      scope.createNamespace('vm'),
      scope.createNamespace('pod'),
      scope.createNamespace('upstream'),
    ]);
    await vlan.attach(vlanClient, { address: VLAN_CLIENT });
    await pod.attach(podClient, { address: POD_CLIENT });
    await pod.attach(stubNs, { address: `${UPSTREAM_IP}/24` });
    const conf = join(scope.dir, 'upstream.Corefile');
    await writeFile(conf, stubCorefile);
    const upstream = stubNs.spawn([await rigBin('coredns'), '-conf', conf], { label: 'upstream' });
    await waitUntilAnswering(stubNs, '127.0.0.1', () => upstream);
    return { scope, vlan, pod, vlanClient, podClient, upstream, dispose: () => scope.dispose() };
  } catch (err) {
    await scope.dispose();
    throw err;
  }
}

export interface Answer {
  /** NOERROR, NXDOMAIN, SERVFAIL… or TIMEOUT. */
  readonly status: string;
  /** The A (or AAAA) addresses answered, in order. */
  readonly answers: string[];
  /** The NSID the server sent (our Corefile: `oooi <ns>/<name> <view> <serial>`). */
  readonly nsid: string | undefined;
}

/** One query with real dig from inside NS (bounded: 1 s per try, 2 tries). */
export async function ask(ns: Netns, server: string, name: string, type = 'A'): Promise<Answer> {
  const argv = [
    await rigBin('dig'),
    `@${server}`,
    name,
    type,
    '+time=1',
    '+tries=2',
    '+nsid',
    '+noall',
    '+comments',
    '+answer',
  ];
  const res = await ns.exec(argv, { timeoutMs: 10_000 });
  const raw = res.stdout;
  const answers = raw
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(';'))
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === type)
    .map((f) => f[4] ?? '');
  return {
    status: /status: ([A-Z]+)/.exec(raw)?.[1] ?? 'TIMEOUT',
    answers,
    nsid: nsidOf(raw),
  };
}

async function waitUntilAnswering(ns: Netns, server: string, proc: () => TrackedProc): Promise<void> {
  await waitFor(
    `CoreDNS at ${server} in ${ns.name} to answer`,
    async () => {
      if (!proc().alive()) throw new Error(`CoreDNS exited:\n${proc().log().slice(-2000)}`);
      return (await ask(ns, server, 'probe.invalid')).status !== 'TIMEOUT';
    },
    { timeoutMs: 15_000, everyMs: 200 },
  );
}

/**
 * Runs the generated Deployment (rig pod runner) on both networks; resolves when it answers. Its config-sync sidecar
 * reads the ConfigMap from the apiserver through KUBECONFIG (default: the rig's admin kubeconfig), so that ConfigMap
 * must be stored there; CoreDNS starts once the sidecar has written it (its startupProbe).
 */
export async function runDnsPod(
  lab: DnsLab,
  deployment: unknown,
  kubeconfig: string = e2eEnv().kubeconfig,
): Promise<RunningPod> {
  const pod = await runPod(lab.scope, {
    deployment,
    vlan: lab.vlan,
    podNetwork: { network: lab.pod, address: DNS_POD_ADDRESS },
    kubeconfig,
  });
  try {
    await waitUntilAnswering(pod.netns, '127.0.0.1', () => pod.container('coredns').proc);
  } catch (err) {
    await pod.dispose();
    throw err;
  }
  return pod;
}

export interface RenderedServer {
  readonly proc: TrackedProc;
  /** Where the files were written (what `oooi render` leaves in OUT/dns/<namespace>-<name>/). */
  readonly dir: string;
}

/**
 * Writes FILES into a directory and starts `coredns -conf Corefile` there, as is, in a namespace of the lab on both
 * networks (VLAN interface net1 at VLAN_ADDRESS, pod-network eth0 at POD_ADDRESS); resolves when it answers.
 */
export async function serveRendered(
  lab: DnsLab,
  files: Readonly<Record<string, string>>,
  at: { readonly label: string; readonly vlanAddress: string; readonly podAddress: string },
): Promise<RenderedServer> {
  const dir = join(lab.scope.dir, 'render-out', at.label);
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const host = await lab.scope.createNamespace(at.label);
  await lab.vlan.attach(host, { ifname: 'net1', address: `${at.vlanAddress}/24` });
  await lab.pod.attach(host, { address: `${at.podAddress}/24` });
  const proc = host.spawn([await rigBin('coredns'), '-conf', 'Corefile'], { label: at.label, cwd: dir });
  await waitUntilAnswering(host, '127.0.0.1', () => proc);
  return { proc, dir };
}
