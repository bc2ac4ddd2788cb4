// What the bench reads while the controller runs: its own watch caches of the objects that must converge (cheap
// for the apiserver: no polling lists), the apiserver's request counters (`apiserver_request_total` from the
// apiserver's /metrics: the writes as the server counted them, whoever sent them), the controller's own counters
// from its /metrics endpoint, and the controller's RSS from /proc.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { promisify } from 'node:util';
import { isSubset, ListWatchCache, type KubeObject, type RestClient } from '@oooi/kube';
import { workloadId, type Expected, type ExpectedInfra, type WorkloadId } from './plan';
import { kinds, ns } from './world';

const run = promisify(execFile);

/** The workload kinds the controller writes for the children, watched cluster-wide by the `part-of=oooi` label. */
export const workloadKinds = [
  { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' },
  { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' },
  { group: '', version: 'v1', plural: 'services', kind: 'Service' },
  { group: '', version: 'v1', plural: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim' },
  { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role' },
  { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', kind: 'RoleBinding' },
  { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', kind: 'NetworkPolicy' },
] as const;

/** Its status's Available condition is True (for a child: its Deployment's; for an Infra: all three children's). */
function availableTrue(o: KubeObject | undefined): boolean {
  const conditions = (o?.status as { conditions?: { type: string; status: string }[] } | undefined)
    ?.conditions;
  return conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false;
}

const allChildren: ReadonlySet<string> = new Set(['DNSServer', 'ProxyServer', 'DHCPServer']);
/** What an attachment edit changes (its DNS names and routes). */
const editedChildren: ReadonlySet<string> = new Set(['DNSServer', 'ProxyServer']);

export class Watcher {
  readonly attachments: ListWatchCache;
  readonly infras: ListWatchCache;
  readonly dns: ListWatchCache;
  readonly proxy: ListWatchCache;
  readonly dhcp: ListWatchCache;
  /** By kind: every workload object carrying `app.kubernetes.io/part-of=oooi`, in every namespace. */
  readonly workloads: Map<string, ListWatchCache>;

  constructor(rest: RestClient) {
    const cache = (kind: (typeof kinds)[keyof typeof kinds]): ListWatchCache =>
      new ListWatchCache({ rest, kind, namespace: ns, watchTimeoutSeconds: 600 });
    this.attachments = cache(kinds.InfraClusterAttachment);
    this.infras = cache(kinds.Infra);
    this.dns = cache(kinds.DNSServer);
    this.proxy = cache(kinds.ProxyServer);
    this.dhcp = cache(kinds.DHCPServer);
    this.workloads = new Map(
      workloadKinds.map((kind) => [
        kind.kind,
        new ListWatchCache({
          rest,
          kind,
          labelSelector: 'app.kubernetes.io/part-of=oooi',
          watchTimeoutSeconds: 600,
          // only the name matters here: nothing of a 200-namespace Role set is kept but its metadata
          transform: (o: KubeObject) => ({ metadata: o.metadata }),
        }),
      ]),
    );
  }

  private caches(): ListWatchCache[] {
    return [this.attachments, this.infras, this.dns, this.proxy, this.dhcp, ...this.workloads.values()];
  }

  /** Our kinds by name, for `IdleDiff` (the workloads' caches keep metadata only). */
  diffed(): Array<[string, ListWatchCache]> {
    return [
      ['Infra', this.infras],
      ['InfraClusterAttachment', this.attachments],
      ['DNSServer', this.dns],
      ['ProxyServer', this.proxy],
      ['DHCPServer', this.dhcp],
    ];
  }

  /** Bumped by every watch event of every cache: a check is only made again after something changed. */
  private changes = 0;
  /** Attachments added, updated or deleted since the last check (by name): only they are checked again. */
  private readonly touchedAttachments = new Set<string>();
  /** Workload objects deleted so far: a delete puts every expected object back on the list to look for. */
  private workloadDeletes = 0;

  async start(signal: AbortSignal): Promise<void> {
    const bump = (): void => {
      this.changes += 1;
    };
    for (const c of this.caches()) c.addHandler({ onAdd: bump, onUpdate: bump, onDelete: bump });
    const touch = (o: KubeObject): void => void this.touchedAttachments.add(o.metadata?.name ?? '');
    this.attachments.addHandler({ onAdd: touch, onUpdate: (_, o) => touch(o), onDelete: touch });
    const deleted = (): void => void (this.workloadDeletes += 1);
    for (const c of this.workloads.values()) c.addHandler({ onDelete: deleted });
    await Promise.all(this.caches().map((c) => c.start(signal)));
  }

  /**
   * Where the checks of one `Expected` stand: attachments not yet settled, per Infra the workload objects not yet
   * seen. A check looks only at attachments touched since the last and objects still absent: it costs what changed,
   * not N (a full check on every event took 2.2 of the bench's 3 CPU-seconds of a cold start at N = 1,000).
   */
  private progress?: {
    expected: Expected;
    unsettled: Set<string>;
    absent: Map<ExpectedInfra, WorkloadId[]>;
    deletes: number;
  };

  private progressOf(expected: Expected): NonNullable<Watcher['progress']> {
    let p = this.progress;
    if (p?.expected !== expected) {
      this.touchedAttachments.clear();
      p = this.progress = {
        expected,
        unsettled: new Set(expected.conditions.keys()),
        absent: new Map(),
        deletes: -1,
      };
      for (const name of p.unsettled) this.touchedAttachments.add(name);
    }
    if (p.deletes !== this.workloadDeletes) {
      p.deletes = this.workloadDeletes;
      for (const e of expected.infras) p.absent.set(e, e.objects.map(workloadId));
    }
    return p;
  }

  /**
   * Each check's verdict on one object, kept with the object's resourceVersion and what it was checked against: a
   * check runs again only for an object that changed (at N = 1,000 a check compares five 1,400-backend
   * ProxyServers; done on every watch event, it used a CPU the apiserver needs).
   */
  private readonly verdicts = new Map<string, { want: unknown; rv: string | undefined; ok: boolean }>();

  private holds(key: string, want: unknown, o: KubeObject | undefined, test: () => boolean): boolean {
    const rv = o?.metadata?.resourceVersion;
    const last = this.verdicts.get(key);
    if (last !== undefined && last.want === want && last.rv === rv) return last.ok;
    const ok = test();
    this.verdicts.set(key, { want, rv, ok });
    return ok;
  }

  /** The DNSServer, ProxyServer and DHCPServer specs (of KINDS) that do not yet hold what `expected` plans. */
  private missingSpecs(expected: Expected, kinds: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const e of expected.infras) {
      for (const [kind, cache, name, want] of [
        ['DNSServer', this.dns, `${e.name}-dns`, e.dnsSpec],
        ['ProxyServer', this.proxy, `${e.name}-proxy`, e.proxySpec],
        ['DHCPServer', this.dhcp, `${e.name}-dhcp`, e.dhcpSpec],
      ] as const) {
        if (!kinds.has(kind)) continue;
        const o = cache.get(ns, name);
        const spec = (o as { spec?: unknown } | undefined)?.spec;
        if (!this.holds(`${kind} ${name}`, want, o, () => isSubset(want, spec)))
          out.push(`${e.name} ${kind} spec`);
      }
    }
    return out;
  }

  /** What is still missing before `expected` holds; empty when converged. */
  missing(expected: Expected): string[] {
    const out: string[] = this.missingSpecs(expected, allChildren);
    const progress = this.progressOf(expected);
    const observed = (o: KubeObject | undefined): boolean =>
      o !== undefined &&
      (o.status as { observedGeneration?: number } | undefined)?.observedGeneration ===
        o.metadata?.generation;
    for (const e of expected.infras) {
      const dns = this.dns.get(ns, `${e.name}-dns`);
      const proxy = this.proxy.get(ns, `${e.name}-proxy`);
      const dhcp = this.dhcp.get(ns, `${e.name}-dhcp`);
      for (const [kind, o] of [
        ['DNSServer', dns],
        ['ProxyServer', proxy],
        ['DHCPServer', dhcp],
      ] as const) {
        if (!observed(o)) out.push(`${e.name} ${kind} status`);
        // kwok runs every pod, so each Deployment becomes available and the child's status says so: a status
        // write the controller rightly makes, after its Deployment's rollout (often the last of all).
        else if (!availableTrue(o)) out.push(`${e.name} ${kind} Available`);
      }
      const absent = (progress.absent.get(e) ?? []).filter((id) =>
        id.alternatives.every((a) => this.workloads.get(a.kind)?.get(a.namespace, a.name) === undefined),
      );
      progress.absent.set(e, absent);
      const byKind = new Map<string, string[]>();
      for (const { id, kind } of absent) {
        const list = byKind.get(kind);
        if (list) list.push(id);
        else byKind.set(kind, [id]);
      }
      for (const [kind, ids] of byKind)
        out.push(`${e.name} ${ids.length} ${kind} objects (first: ${ids[0]})`);
      const infra = this.infras.get(ns, e.name);
      const status = infra?.status as
        { observedGeneration?: number; attachments?: { total?: number } } | undefined;
      if (
        status?.observedGeneration !== infra?.metadata?.generation ||
        status?.attachments?.total !== e.total
      )
        out.push(`${e.name} status`);
      else if (!availableTrue(infra)) out.push(`${e.name} Available`);
    }
    for (const name of this.touchedAttachments) {
      const want = expected.conditions.get(name);
      if (want === undefined) continue;
      const conditions = (
        this.attachments.get(ns, name)?.status as
          { conditions?: { type: string; status: string; reason: string }[] } | undefined
      )?.conditions;
      const got = (conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason}`);
      if (want.every((w) => got.includes(w))) progress.unsettled.delete(name);
      else progress.unsettled.add(name);
    }
    this.touchedAttachments.clear();
    const pending = progress.unsettled.size;
    if (pending > 0) out.push(`${pending} attachment statuses`);
    return out;
  }

  /** Waits until `expected` holds (checked every 20 ms); resolves with the ms it took, or throws naming what lags. */
  until(expected: Expected, timeoutMs: number, from = Date.now()): Promise<number> {
    this.lastMissing.clear();
    return this.poll(() => this.missing(expected), timeoutMs, from, this.lastMissing);
  }

  /** Per kind of thing `until` waited for, the ms (from its start) of the last check that found it missing. */
  private readonly lastMissing = new Map<string, number>();

  /**
   * When each kind of thing the last `until` waited for was done: `attachment statuses 4.1 s, RoleBinding objects
   * 9.3 s, …`, earliest first. The time is that of the last check that still found it missing (checks run after
   * watch events, so it is within a few tens of ms of the event that completed it).
   */
  milestones(): string {
    return [...this.lastMissing]
      .sort((a, b) => a[1] - b[1])
      .map(([what, ms]) => `${what} ${(ms / 1000).toFixed(1)} s`)
      .join(', ');
  }

  /** Waits until the DNSServer and ProxyServer hold `expected`'s specs. */
  untilChildren(expected: Expected, timeoutMs: number, from = Date.now()): Promise<number> {
    return this.poll(() => this.missingSpecs(expected, editedChildren), timeoutMs, from);
  }

  /**
   * Checks every 20 ms, but only when a watch event has arrived since the last check: at N = 1,000 one check compares
   * five 1,400-backend ProxyServers, and checking unchanged caches would load the CPUs the apiserver needs.
   */
  private async poll(
    check: () => string[],
    timeoutMs: number,
    from: number,
    last?: Map<string, number>,
  ): Promise<number> {
    let seen = -1;
    let missing: string[] = [];
    for (;;) {
      if (seen !== this.changes) {
        seen = this.changes;
        missing = check();
        for (const m of missing) last?.set(category(m), Date.now() - from);
        if (missing.length === 0) return Date.now() - from;
      }
      if (Date.now() - from > timeoutMs)
        throw new Error(`not converged after ${timeoutMs} ms; missing: ${missing.join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.caches().map((c) => c.stop()));
  }
}

/** What one missing item is, without its Infra, counts and example: `bench-3 12 Role objects (first: …)` → `Role objects`. */
export function category(missing: string): string {
  return missing
    .replace(/ \(first: .*\)$/, '')
    .replace(/^bench-\d+ /, '')
    .replace(/^\d+ /, '');
}

/** Write verbs as kube-apiserver labels them in apiserver_request_total. */
const writeVerbs = new Set([
  'POST',
  'PUT',
  'PATCH',
  'APPLY',
  'DELETE',
  'DELETECOLLECTION',
  'CREATE',
  'UPDATE',
]);

/** `VERB group/resource[/subresource]` → count, for every write the apiserver answered (any code). */
export type WriteCounts = Map<string, number>;

/** The labels of one Prometheus series, `a="x",b="y"` → { a: 'x', b: 'y' }. */
export function labelsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** The apiserver's /metrics text (through kubectl, with the rig's admin kubeconfig). */
export async function apiserverMetrics(kubectl: string, kubeconfig: string): Promise<string> {
  const { stdout } = await run(kubectl, ['--kubeconfig', kubeconfig, 'get', '--raw', '/metrics'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

export async function apiserverWrites(kubectl: string, kubeconfig: string): Promise<WriteCounts> {
  return (await apiserverWriteStats(kubectl, kubeconfig)).counts;
}

/** GETs and LISTs (a WATCH is counted when it ends, so not here). */
const readVerbs = new Set(['GET', 'LIST']);

/** Requests the apiserver answered and the seconds it spent on them: writes, and reads apart. */
export interface RequestStats {
  counts: WriteCounts;
  seconds: WriteCounts;
  reads: { counts: WriteCounts; seconds: WriteCounts };
}

/**
 * The writes the apiserver answered (apiserver_request_total) and the seconds it spent on them, request received to
 * response written (apiserver_request_duration_seconds_sum), both by `VERB group/resource[/subresource]`; the same
 * for GETs and LISTs apart (`reads`).
 */
export async function apiserverWriteStats(kubectl: string, kubeconfig: string): Promise<RequestStats> {
  const stdout = await apiserverMetrics(kubectl, kubeconfig);
  const counts: WriteCounts = new Map();
  const seconds: WriteCounts = new Map();
  const reads: RequestStats['reads'] = { counts: new Map(), seconds: new Map() };
  for (const line of stdout.split('\n')) {
    const m = /^(apiserver_request_total|apiserver_request_duration_seconds_sum)\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const l = labelsOf(m[2]!);
    const read = readVerbs.has(l.verb ?? '');
    if (!read && !writeVerbs.has(l.verb ?? '')) continue;
    const key = `${l.verb} ${l.group ?? ''}/${l.resource}${l.subresource ? `/${l.subresource}` : ''}`;
    const total = m[1] === 'apiserver_request_total';
    const into = read ? (total ? reads.counts : reads.seconds) : total ? counts : seconds;
    into.set(key, (into.get(key) ?? 0) + Number(m[3]));
  }
  return { counts, seconds, reads };
}

/** Mean server-side ms per request of each key with at least 5 requests between two samples, slowest total first. */
export function serverTimes(
  before: { counts: WriteCounts; seconds: WriteCounts },
  after: { counts: WriteCounts; seconds: WriteCounts },
): string {
  const n = diffCounts(before.counts, after.counts);
  const s = diffCounts(before.seconds, after.seconds);
  return [...n]
    .filter(([, count]) => count >= 5)
    .map(([key, count]) => ({ key, count, total: s.get(key) ?? 0 }))
    .sort((a, b) => b.total - a.total)
    .map((x) => `${x.key} ${x.count} × ${((x.total / x.count) * 1000).toFixed(0)} ms`)
    .join(', ');
}

/** after − before, keys with a difference only. */
export function diffCounts(before: WriteCounts, after: WriteCounts): WriteCounts {
  const out: WriteCounts = new Map();
  for (const [key, value] of after) {
    const d = value - (before.get(key) ?? 0);
    if (d !== 0) out.set(key, d);
  }
  return out;
}

/**
 * The writes to what the controller writes: our kinds (and their status), events.k8s.io Events, and the workloads'
 * ConfigMaps, ServiceAccounts, Services, PVCs, NetworkPolicies, Deployments, Roles and RoleBindings (the VMI readers
 * in every control-plane namespace included; not Deployment status: kube-controller-manager writes that, as it
 * writes the ReplicaSets and Pods that follow, which are left out). Lease renewals are counted apart: the
 * controller renews its Lease every 2 s by design (and kwok renews its node's).
 */
export function controllerWrites(counts: WriteCounts): { leases: number; other: WriteCounts } {
  let leases = 0;
  const other: WriteCounts = new Map();
  const ours =
    /^\S+ (hostedcluster\.densityops\.com\/|events\.k8s\.io\/events$|\/(configmaps|serviceaccounts|services|persistentvolumeclaims)$|apps\/deployments$|rbac\.authorization\.k8s\.io\/(roles|rolebindings)$|networking\.k8s\.io\/networkpolicies$)/;
  for (const [key, value] of counts) {
    if (key.endsWith('/leases')) leases += value;
    else if (ours.test(key)) other.set(key, value);
  }
  return { leases, other };
}

/** Every write outside Leases and Nodes (to see what else moved). */
export function otherWrites(counts: WriteCounts): WriteCounts {
  return new Map([...counts].filter(([k]) => !/\/(leases|nodes(\/status)?)$/.test(k)));
}

export function total(counts: WriteCounts): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}

/** The controller's /metrics text. */
export function controllerMetrics(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Sum of a counter's series in a Prometheus text, optionally only those whose labels contain `having`. */
export function counterSum(text: string, name: string, having = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) || !line.includes(having)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Per controller: passes and the seconds they took. */
export type Passes = Array<{ controller: string; count: number; seconds: number }>;

/** The passes of the Infra, attachment and DNSServer controllers, from the controller's own metrics. */
export function passesOf(text: string): Passes {
  return ['infra', 'infraclusterattachment', 'dnsserver'].map((controller) => ({
    controller,
    count: counterSum(text, 'oooi_controller_reconcile_total', `controller="${controller}"`),
    seconds: counterSum(text, 'oooi_controller_reconcile_duration_seconds_sum', `controller="${controller}"`),
  }));
}

/** The sum of every series of metric NAME (with or without labels) in a Prometheus text. */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

/** CPU seconds (user + system) process PID has used so far, from /proc; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds so far of each named process (the rig's components, the controller, this bench). */
export type CpuSample = Map<string, number>;

export function sampleCpu(pids: ReadonlyMap<string, number>): CpuSample {
  const out: CpuSample = new Map([...pids].map(([name, pid]) => [name, cpuSeconds(pid)]));
  const self = process.cpuUsage();
  out.set('bench', (self.user + self.system) / 1e6);
  return out;
}

/** `name X.X s` for each process, after − before, largest first. */
export function cpuLine(before: CpuSample, after: CpuSample): string {
  return [...after]
    .map(([name, v]) => [name, v - (before.get(name) ?? NaN)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([name, d]) => `${name} ${d.toFixed(1)} s`)
    .join(', ');
}

/** Resident set size of a process (VmRSS), or its peak so far (VmHWM), in MiB. */
export function rssMiB(pid: number, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${which}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * Where a Node process's memory is, from its prom-client default metrics (PREFIX their prefix): the V8 heap's
 * committed size and use, by space, and memory outside it (Buffers). `heap 180/210 MiB (old 150/170, new 20/32, …),
 * external 12 MiB`.
 */
export function memoryLine(text: string, prefix: string): string {
  const mib = (v: number) => (v / 1048576).toFixed(0);
  const space = (metric: string) => {
    const out = new Map<string, number>();
    for (const line of text.split('\n'))
      if (line.startsWith(`${prefix}nodejs_heap_space_size_${metric}_bytes{`))
        out.set(labelsOf(line).space ?? '?', Number(line.slice(line.lastIndexOf(' ') + 1)));
    return out;
  };
  const used = space('used');
  const total = space('total');
  const spaces = [...total]
    .filter(([, t]) => t >= 1048576)
    .sort((a, b) => b[1] - a[1])
    .map(([name, t]) => `${name} ${mib(used.get(name) ?? NaN)}/${mib(t)}`)
    .join(', ');
  const heapUsed = metricSum(text, `${prefix}nodejs_heap_size_used_bytes`);
  const heapTotal = metricSum(text, `${prefix}nodejs_heap_size_total_bytes`);
  const external = metricSum(text, `${prefix}nodejs_external_memory_bytes`);
  return `heap used/committed ${mib(heapUsed)}/${mib(heapTotal)} MiB (${spaces}), external ${mib(external)} MiB`;
}
