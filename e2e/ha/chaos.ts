// The chaos harness, shared by e2e/ha/chaos.test.ts and bench/ha: in the sandbox's world (e2e/sandbox) it starts the
// steady-load probe from a VM namespace (probe/), lets it run undisturbed for a while, then for each component row
// (components.ts): SIGKILLs each replica's pod in turn (the "ReplicaSet" starts a new one), rolls the component (an
// Infra change the controller's gate applies one replica at a time) and loses the node of its last replica (every pod
// on that node SIGKILLed at once; replaced after the modelled eviction). Each event lasts from its start until every
// pod it stopped runs again plus a settle time. It returns the probe's report per component and event and, per
// component, how long its rollout had no replica running.
import { DeploymentKind } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { kinds } from '../controller/support';
import { waitFor } from '@oooi/rig';
import type { SandboxWorld } from '../sandbox/sandbox';
import type { ComponentRow } from './components';
import { startProbe, type RunningProbe } from './probe/probe';
import { report, type ChaosEvent, type OpRecord, type ReportRow } from './probe/report';
import { PROBE_RESOLVER } from './probe/resolver';
import { allDownMs, allUpAgain } from './timeline';

export interface ChaosOptions {
  readonly rows: readonly ComponentRow[];
  /** After each event, once its pods run again (default 3 s). */
  readonly settleMs?: number;
  /** Undisturbed load first (default 5 s). */
  readonly steadyMs?: number;
  readonly say: (line: string) => void;
}

export interface ChaosResult {
  readonly rows: readonly ReportRow[];
  readonly events: readonly ChaosEvent[];
  /** Per component: ms of its rollout during which none of its replicas ran. */
  readonly rolloutAllDownMs: Readonly<Record<string, number>>;
  /** The resolvers the probe's lease handed out. */
  readonly resolvers: readonly string[];
  readonly ops: readonly OpRecord[];
  /** Per component: each change of its Deployments' image and status the harness saw during the rollout. */
  readonly rolloutSamples: Readonly<Record<string, readonly string[]>>;
  /**
   * Per component: how many of those samples had none of its Deployments rolled out and available (what the
   * controller's gate controls, as the API shows it).
   */
  readonly rolloutNoneAvailable: Readonly<Record<string, number>>;
}

type DeploymentView = KubeObject & {
  spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  };
};

/** `image gen/observed updated/available` of a Deployment, as the controller's rollout gate reads it. */
function describeDeployment(d: DeploymentView | undefined): string {
  if (!d) return 'absent';
  const st = d.status ?? {};
  const image = d.spec?.template?.spec?.containers?.[0]?.image ?? '?';
  return `${image.split(':').at(-1)} gen ${d.metadata?.generation ?? '?'}/${st.observedGeneration ?? '-'} upd ${st.updatedReplicas ?? 0} avail ${st.availableReplicas ?? 0}`;
}

const rolledOut = (d: DeploymentView | undefined) =>
  !!d?.status &&
  (d.status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
  d.status.updatedReplicas === 1 &&
  d.status.availableReplicas === 1;

/** Samples DEPLOYMENTS every 250 ms until stopped; the lines where something changed, and samples with none available. */
function sampleDeployments(
  w: SandboxWorld,
  deployments: readonly string[],
): () => { lines: string[]; noneAvailable: number } {
  const lines: string[] = [];
  let noneAvailable = 0;
  const t0 = Date.now();
  let last = '';
  let on = true;
  const get = (name: string) =>
    w.admin.get<DeploymentView>(DeploymentKind, { namespace: w.infra.metadata!.namespace!, name });
  void (async () => {
    while (on) {
      const ds = await Promise.all(deployments.map(get));
      if (!ds.some(rolledOut)) noneAvailable++;
      const now = deployments.map((d, i) => `${d}: ${describeDeployment(ds[i])}`).join('; ');
      if (now !== last) lines.push(`+${((Date.now() - t0) / 1000).toFixed(1)} s ${now}`);
      last = now;
      await sleep(250);
    }
  })();
  return () => {
    on = false;
    return { lines, noneAvailable };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PROXY_PORT = 6443;

/** The probe: DNS and TLS every 50 ms and renewals every second from one VM, renewals only from a second one. */
async function startProbes(w: SandboxWorld): Promise<RunningProbe[]> {
  const cluster = w.clusters[0]!;
  const proxy = (w.infra.spec as { infraComponents: { proxy: { serverIP: string } } }).infraComponents.proxy;
  const name = `api.${cluster.domain}`;
  const limitMs = 30 * 60_000;
  const vm = await startProbe(w.scope, w.vlan, {
    client: 'vm-probe',
    limitMs,
    dns: { name, everyMs: 50, resolver: PROBE_RESOLVER },
    tls: {
      address: proxy.serverIP,
      port: PROXY_PORT,
      servername: name,
      caFile: cluster.caFile,
      everyMs: 50,
      timeoutMs: 3000,
    },
  });
  const second = await startProbe(w.scope, w.vlan, { client: 'vm-probe-2', limitMs });
  return [vm, second];
}

interface Out {
  events: ChaosEvent[];
  samples: Record<string, string[]>;
  noneAvailable: Record<string, number>;
  /** The Infra as last applied (each rollout builds on the one before). */
  infra: KubeObject;
}

async function event(
  w: SandboxWorld,
  o: ChaosOptions,
  e: {
    component: string;
    event: string;
    deployments: readonly string[];
    act: () => Promise<void>;
    timeoutMs: number;
  },
): Promise<ChaosEvent> {
  o.say(`chaos: ${e.component}: ${e.event}`);
  const start = Date.now();
  await e.act();
  await waitFor(
    `${e.deployments.join(', ')} running again after ${e.event}`,
    () => {
      for (const k of w.kubelets) k.check();
      return allUpAgain(w.kubelet.timeline(), e.deployments, start);
    },
    { timeoutMs: e.timeoutMs, everyMs: 200 },
  );
  await sleep(o.settleMs ?? 3000);
  return { component: e.component, event: e.event, start, end: Date.now() };
}

async function componentEvents(w: SandboxWorld, o: ChaosOptions, row: ComponentRow, out: Out) {
  const { events } = out;
  const c = row.component;
  for (const d of row.deployments)
    events.push(
      await event(w, o, {
        component: c,
        event: `SIGKILL ${d}`,
        deployments: [d],
        act: async () => {
          await w.kubelet.deletePod(d);
          await w.apiStatus?.deletePods(d);
        },
        timeoutMs: 120_000,
      }),
    );
  if (row.roll) await rollout(w, o, row, out);
  const namespace = w.infra.metadata!.namespace!;
  const last = row.lose ? await row.lose(w.admin, namespace) : row.deployments.at(-1)!;
  const node = w.kubelet.placement().find((p) => p.deployment === last)?.node;
  if (node === undefined) throw new Error(`chaos: ${last} runs on no node`);
  // The workloads' node only: the operator's pod is spared (as if it ran on a node outside the chaos), since its
  // own 300 s toleration would hold every later event back.
  const lost = w.kubelet
    .placement()
    .filter((p) => p.node === node)
    .map((p) => p.deployment);
  events.push(
    await event(w, o, {
      component: c,
      event: `node ${node} lost (${lost.join(', ')})`,
      deployments: lost,
      act: () => w.kubelet.loseNode(node),
      timeoutMs: 300_000,
    }),
  );
}

async function rollout(w: SandboxWorld, o: ChaosOptions, row: ComponentRow, out: Out): Promise<void> {
  const { events, samples, noneAvailable } = out;
  const c = row.component;
  await waitFor(
    `${row.deployments.join(', ')} rolled out and available before the rollout`,
    async () => {
      const ds = await Promise.all(
        row.deployments.map((name) =>
          w.admin.get<DeploymentView>(DeploymentKind, { namespace: w.infra.metadata!.namespace!, name }),
        ),
      );
      return ds.every(rolledOut);
    },
    { timeoutMs: 120_000, everyMs: 500 },
  );
  const rolled = row.roll!(out.infra);
  out.infra = rolled;
  const stopSampling = sampleDeployments(w, row.deployments);
  events.push(
    await event(w, o, {
      component: c,
      event: 'rollout',
      deployments: row.deployments,
      act: async () => void (await w.admin.apply(kinds.Infra, rolled, { force: true })),
      timeoutMs: 300_000,
    }),
  );
  const sampled = stopSampling();
  samples[c] = sampled.lines;
  noneAvailable[c] = sampled.noneAvailable;
}

/** Runs the probe and every row's events in W; see the file comment. */
export async function runChaos(w: SandboxWorld, o: ChaosOptions): Promise<ChaosResult> {
  const probes = await startProbes(w);
  const resolvers = probes[0]!.lease.dns;
  o.say(
    `chaos: probe VM ${probes[0]!.lease.ip} (resolvers ${resolvers.join(', ')}), second DHCP client ${probes[1]!.lease.ip}`,
  );
  const events: ChaosEvent[] = [];
  const rolloutAllDownMs: Record<string, number> = {};
  const samples: Record<string, string[]> = {};
  const noneAvailable: Record<string, number> = {};
  let ops: OpRecord[] | undefined;
  const out: Out = { events, samples, noneAvailable, infra: w.infra };
  try {
    const t0 = Date.now();
    await sleep(o.steadyMs ?? 5000);
    events.push({ component: '-', event: 'steady (no event)', start: t0, end: Date.now() });
    for (const row of o.rows) {
      await componentEvents(w, o, row, out);
      const rolled = events.find((e) => e.component === row.component && e.event === 'rollout');
      if (rolled)
        rolloutAllDownMs[row.component] = allDownMs(
          w.kubelet.timeline(),
          row.deployments,
          rolled.start,
          rolled.end,
        );
    }
  } finally {
    ops = (await Promise.all(probes.map(async (p) => p.stop()))).flat();
  }
  return {
    rows: report(ops, events),
    events,
    rolloutAllDownMs,
    resolvers,
    ops,
    rolloutSamples: samples,
    rolloutNoneAvailable: noneAvailable,
  };
}
