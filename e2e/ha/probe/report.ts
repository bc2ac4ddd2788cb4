// The pure part of the probe's report: from every operation the probe recorded (its start, end and outcome) and the
// events the harness caused (a component, what happened, from when until it settled), one row per component, event
// and kind of operation: how many failed, the longest gap without a success, addresses handed to two clients at once,
// and leases lost.

export type OpKind = 'dns' | 'tls' | 'dhcp';

export interface OpRecord {
  readonly op: OpKind;
  /** Which client did it (one probe may run several DHCP clients). */
  readonly client: string;
  /** ms since the epoch. */
  readonly start: number;
  readonly end: number;
  readonly ok: boolean;
  /** What happened (an rcode, an error, the DHCP hook's event). */
  readonly detail?: string;
  /** DHCP: the address the client holds after it. */
  readonly ip?: string;
  /** DHCP: the client lost its lease here (a NAK, a deconfig, another address than before). */
  readonly lost?: boolean;
}

export interface ChaosEvent {
  readonly component: string;
  /** What happened, e.g. `SIGKILL vlan100-dns`, `rollout`, `node kwok-node-1 lost`. */
  readonly event: string;
  readonly start: number;
  /** When it had settled (the replaced pods running again). */
  readonly end: number;
}

export interface ReportRow {
  readonly component: string;
  readonly event: string;
  readonly op: OpKind;
  readonly ops: number;
  readonly failed: number;
  /** The longest time without a successful completion around the event, ms. */
  readonly longestGapMs: number;
  readonly doubleAllocations: number;
  readonly leasesLost: number;
}

/**
 * The longest time between two successful completions of OPS within [START, END], counting from the last success
 * before START and up to END (the next event may start at END: what follows is its own).
 */
export function longestGap(ops: readonly OpRecord[], start: number, end: number): number {
  const done = ops
    .filter((o) => o.ok)
    .map((o) => o.end)
    .sort((a, b) => a - b);
  const before = done.filter((t) => t < start).at(-1) ?? start;
  const marks = [before, ...done.filter((t) => t >= start && t <= end), end];
  let gap = 0;
  for (let i = 1; i < marks.length; i++) gap = Math.max(gap, marks[i]! - marks[i - 1]!);
  return gap;
}

/**
 * Times a client got an address another client held at that moment (each client holds the address of its last
 * successful DHCP operation; DHCP records in time order).
 */
export function doubleAllocations(dhcp: readonly OpRecord[]): number {
  const holds = new Map<string, string>();
  let doubles = 0;
  for (const r of [...dhcp].sort((a, b) => a.end - b.end)) {
    if (r.lost) holds.delete(r.client);
    if (!r.ok || r.ip === undefined) continue;
    if ([...holds].some(([client, ip]) => client !== r.client && ip === r.ip)) doubles++;
    holds.set(r.client, r.ip);
  }
  return doubles;
}

/** One row per event and kind of operation the probe ran (ops that started within the event's window). */
export function report(ops: readonly OpRecord[], events: readonly ChaosEvent[]): ReportRow[] {
  const kinds = (['dns', 'tls', 'dhcp'] as const).filter((k) => ops.some((o) => o.op === k));
  return events.flatMap((e) =>
    kinds.map((op) => {
      const all = ops.filter((o) => o.op === op);
      const inWindow = all.filter((o) => o.start >= e.start && o.start <= e.end);
      // double allocations: the clients' whole history up to the window's end, counted once it is in the window
      const upTo = (t: number) => doubleAllocations(all.filter((o) => o.end <= t));
      return {
        component: e.component,
        event: e.event,
        op,
        ops: inWindow.length,
        failed: inWindow.filter((o) => !o.ok).length,
        longestGapMs: longestGap(all, e.start, e.end),
        doubleAllocations: op === 'dhcp' ? upTo(e.end) - upTo(e.start) : 0,
        leasesLost: inWindow.filter((o) => o.lost).length,
      };
    }),
  );
}

/** The report as an aligned text table. */
export function formatReport(rows: readonly ReportRow[]): string {
  const head = ['component', 'event', 'op', 'ops', 'failed', 'longest gap', 'double alloc', 'leases lost'];
  const body = rows.map((r) => [
    r.component,
    r.event,
    r.op,
    String(r.ops),
    String(r.failed),
    `${(r.longestGapMs / 1000).toFixed(2)} s`,
    r.op === 'dhcp' ? String(r.doubleAllocations) : '-',
    r.op === 'dhcp' ? String(r.leasesLost) : '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, ...body]
    .map((cells) =>
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Per event: the failed operations that started in it, counted by kind and detail (`dns timeout 198.51.100.5: 3`). */
export function failures(ops: readonly OpRecord[], events: readonly ChaosEvent[]): string[] {
  return events.flatMap((e) => {
    const counts = new Map<string, number>();
    for (const o of ops.filter((x) => !x.ok && x.start >= e.start && x.start <= e.end)) {
      const key = `${o.op} ${o.detail ?? ''}`.trim();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([k, n]) => `${e.component} ${e.event}: ${k}: ${n}`);
  });
}
