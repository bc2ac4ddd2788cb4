// Kubernetes Events (events.k8s.io/v1), de-duplicated like client-go's events broadcaster: the first occurrence
// creates an Event; repeats of the same event (same object, type, reason, action, note) within `seriesWindowMs`
// only bump a local count, which is written as `series` by a merge patch at most once per `patchIntervalMs`.
// Events are best effort: a failed write is logged and counted, never thrown at the caller.
import { pino, type Logger } from 'pino';
import { microTime, systemClock, systemRandom, type Clock, type Random, type TimerHandle } from '../clock';
import { apiVersionOf, type KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { isApiError } from '../rest/rest';
import { canonicalJson } from '../write/canonical';
import type { KubeClient } from '../write/client';

export const EventKind: Readonly<KindDescriptor> = Object.freeze({
  group: 'events.k8s.io',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
});

/** What an Event is about. */
export interface ObjectReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
}

export interface EventInput {
  type: 'Normal' | 'Warning';
  /** CamelCase, machine-readable, e.g. `Provisioned`. */
  reason: string;
  /** What was done or failed, CamelCase, e.g. `Apply`. */
  action: string;
  /** Human-readable; cut to 1 kB. */
  note: string;
}

export interface EventRecorderOptions {
  client: KubeClient;
  /** e.g. `oooi.io/controller`. */
  reportingController: string;
  /** This process, e.g. the pod name. */
  reportingInstance: string;
  /** Repeats within this window join the series of the first. Default 10 min. */
  seriesWindowMs?: number;
  /** At most one series update per event per interval. Default 30 s. */
  patchIntervalMs?: number;
  /** Distinct events remembered (oldest forgotten first). Default 4096. */
  maxTracked?: number;
  clock?: Clock;
  random?: Random;
  log?: Logger;
}

interface Tracked {
  namespace: string;
  name: string;
  count: number;
  sentCount: number;
  lastObservedAt: number;
  lastPatchAt: number;
  timer: TimerHandle | undefined;
  chain: Promise<boolean>;
}

/** Builds the reference to `obj` that an Event points at. */
export function referenceTo(obj: KubeObject): ObjectReference {
  const meta = obj.metadata ?? {};
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    name: meta.name ?? '',
    namespace: meta.namespace,
    uid: meta.uid,
  };
}

function isReference(x: KubeObject | ObjectReference): x is ObjectReference {
  return !('metadata' in x) && typeof x.name === 'string';
}

export class EventRecorder {
  private readonly o: EventRecorderOptions;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly log: Logger;
  private readonly tracked = new Map<string, Tracked>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: EventRecorderOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock();
    this.random = options.random ?? systemRandom();
    this.log = (options.log ?? pino({ level: 'silent' })).child({ recorder: options.reportingController });
  }

  /** Records an event about `regarding` (an object or a reference). Returns at once; the write is in the background. */
  event(regarding: KubeObject | ObjectReference, input: EventInput): void {
    if (this.closed) return;
    const ref = isReference(regarding) ? regarding : referenceTo(regarding);
    const now = this.clock.now();
    const key = canonicalJson({ ref: { ...ref, resourceVersion: undefined }, ...input });
    const entry = this.tracked.get(key);
    if (entry && now - entry.lastObservedAt <= (this.o.seriesWindowMs ?? 600_000)) {
      entry.count += 1;
      entry.lastObservedAt = now;
      this.tracked.delete(key);
      this.tracked.set(key, entry);
      this.scheduleSeries(key, entry);
      return;
    }
    if (entry) this.untrack(key, entry);
    this.create(key, ref, input, now);
  }

  /** Waits for every write in flight (tests, shutdown). Pending series updates are sent first. */
  async flush(): Promise<void> {
    for (const [key, entry] of this.tracked) {
      if (entry.timer === undefined) continue;
      this.clock.clearTimeout(entry.timer);
      entry.timer = undefined;
      this.sendSeries(key, entry);
    }
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Sends pending series updates, waits for writes in flight, and drops events recorded after this. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private create(key: string, ref: ObjectReference, input: EventInput, now: number): void {
    const namespace = ref.namespace || 'default';
    const name = `${ref.name}.${Math.floor(this.random() * 2 ** 48)
      .toString(16)
      .padStart(12, '0')}`;
    const body: KubeObject = {
      apiVersion: apiVersionOf(EventKind),
      kind: EventKind.kind,
      metadata: { name, namespace },
      eventTime: microTime(now),
      reportingController: this.o.reportingController,
      reportingInstance: this.o.reportingInstance,
      type: input.type,
      reason: input.reason,
      action: input.action,
      note: input.note.slice(0, 1024),
      regarding: ref,
    };
    const entry: Tracked = {
      namespace,
      name,
      count: 1,
      sentCount: 1,
      lastObservedAt: now,
      lastPatchAt: now,
      timer: undefined,
      chain: Promise.resolve(false),
    };
    entry.chain = this.track(
      this.o.client.create(EventKind, body).then(
        () => true,
        (err: unknown) => this.failed(err, 'create', name),
      ),
    );
    this.tracked.set(key, entry);
    while (this.tracked.size > (this.o.maxTracked ?? 4096)) {
      const [oldestKey, oldest] = this.tracked.entries().next().value as [string, Tracked];
      this.untrack(oldestKey, oldest);
    }
  }

  private scheduleSeries(key: string, entry: Tracked): void {
    if (entry.timer !== undefined) return;
    const delay = Math.max(0, entry.lastPatchAt + (this.o.patchIntervalMs ?? 30_000) - this.clock.now());
    entry.timer = this.clock.setTimeout(() => {
      entry.timer = undefined;
      this.sendSeries(key, entry);
    }, delay);
  }

  private sendSeries(key: string, entry: Tracked): void {
    entry.chain = this.track(
      entry.chain.then(async (created) => {
        if (!created || entry.count <= entry.sentCount) return created;
        const count = entry.count;
        entry.lastPatchAt = this.clock.now();
        const series = { count, lastObservedTime: microTime(entry.lastObservedAt) };
        try {
          await this.o.client.mergePatch(
            EventKind,
            { namespace: entry.namespace, name: entry.name },
            { series },
          );
          entry.sentCount = count;
          return true;
        } catch (err) {
          if (isApiError(err, 404)) this.untrack(key, entry);
          return this.failed(err, 'patch', entry.name);
        }
      }),
    );
  }

  private untrack(key: string, entry: Tracked): void {
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    if (this.tracked.get(key) === entry) this.tracked.delete(key);
  }

  private track(p: Promise<boolean>): Promise<boolean> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  private failed(err: unknown, verb: string, name: string): boolean {
    this.log.warn({ err, verb, event: name }, 'Event write failed');
    return false;
  }
}
