// A process's own part of one object's status (a data plane reporting on the CR that configures it): the status
// fields and conditions it owns, written by server-side apply to /status under the client's field manager, so the
// controller's fields (observedGeneration, its own conditions) are never touched. Writes are coalesced (any number
// of poke() calls before a write make one write, built at write time), rate-limited (at most one per intervalMs),
// skipped when the body equals the last one written, and retried after a failure with capped backoff (never sooner
// than intervalMs). poke() only arms a timer, so a hot path may call it on every change.
import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy } from '../backoff';
import { systemRandom, type Clock, type Random, type TimerHandle } from '../clock';
import { apiVersionOf, type KindDescriptor } from '../kinds';
import type { Condition } from '../object';
import { canonicalJson } from './canonical';
import type { KubeClient } from './client';
import { setCondition, type ConditionUpdate } from './conditions';

/** A condition this process owns. Without observedGeneration (the process may not know which one it acts on). */
export interface OwnedCondition extends Omit<ConditionUpdate, 'observedGeneration'> {
  readonly observedGeneration?: number;
}

/** What the process owns in the status: some top-level fields and some conditions (by type). */
export interface OwnedStatus {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly conditions?: readonly OwnedCondition[];
}

export type StatusWriteResult = 'written' | 'unchanged' | 'failed' | 'inactive';

export const statusWriteResults: readonly StatusWriteResult[] = [
  'written',
  'unchanged',
  'failed',
  'inactive',
];

export interface StatusReporterOptions {
  /** Carries the field manager of this process. */
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  readonly namespace: string;
  readonly name: string;
  /** The status to write, called at write time. */
  readonly build: () => OwnedStatus;
  readonly clock: Clock;
  readonly log: Logger;
  readonly random?: Random;
  /** Minimum time between two writes. @default 1000 */
  readonly intervalMs?: number;
  /** Delay after failed writes (at least intervalMs). @default 1 s doubling to 60 s, jitter 0.2 */
  readonly retry?: BackoffPolicy;
  /**
   * Whether this process reports now (default: always). While false nothing is written ('inactive'), and the next
   * write once it is true again is sent whatever was written before: another writer under the same field manager
   * (the other member of a DHCP pair) may have written the status meanwhile.
   */
  readonly active?: () => boolean;
  /** Told the outcome of every flush (for a metric). */
  readonly onWrite?: (result: StatusWriteResult) => void;
}

const defaultRetry: BackoffPolicy = { baseMs: 1000, capMs: 60_000, jitter: 0.2 };

export class StatusReporter {
  private lastWritten = '';
  /** Our conditions as last built, plus any seen on the live object (for their transition times). */
  private known: Condition[] = [];
  private timer: TimerHandle | undefined;
  private notBefore = -Infinity;
  private failures = 0;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: StatusReporterOptions) {}

  /**
   * The conditions of the live object: a condition type not yet built here takes its lastTransitionTime from it,
   * so a restarted process does not move the transition time of a status that did not change.
   */
  observed(conditions: readonly Condition[] | undefined): void {
    for (const c of conditions ?? []) {
      if (!this.known.some((k) => k.type === c.type)) this.known.push(c);
    }
  }

  /** Asks for a write; coalesced with any pending one and held back by the rate limit or a retry backoff. */
  poke(): void {
    if (this.stopped || this.timer !== undefined) return;
    const wait = Math.max(0, this.notBefore - this.o.clock.now());
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.flush());
    }, wait);
  }

  /** Cancels a pending write; a write in flight finishes (see idle()). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.o.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Resolves once no write is in flight. */
  idle(): Promise<void> {
    return this.writing;
  }

  private body(): Record<string, unknown> {
    const owned = this.o.build();
    const now = this.o.clock.now();
    const conditions: Condition[] = [];
    for (const c of owned.conditions ?? []) {
      const [next] = setCondition(
        this.known.filter((k) => k.type === c.type),
        { ...c, observedGeneration: c.observedGeneration ?? 0 },
        now,
      );
      const { observedGeneration: _g, ...rest } = next!;
      conditions.push(c.observedGeneration === undefined ? rest : next!);
    }
    this.known = [...this.known.filter((k) => !conditions.some((c) => c.type === k.type)), ...conditions];
    return owned.conditions === undefined ? { ...owned.fields } : { ...owned.fields, conditions };
  }

  private async flush(): Promise<void> {
    if (this.stopped) return;
    if (this.o.active?.() === false) {
      this.lastWritten = '';
      this.o.onWrite?.('inactive');
      return;
    }
    const status = this.body();
    const text = canonicalJson(status);
    if (text === this.lastWritten) {
      this.o.onWrite?.('unchanged');
      return;
    }
    const { kind, namespace, name, clock } = this.o;
    const interval = this.o.intervalMs ?? 1000;
    this.notBefore = clock.now() + interval;
    try {
      await this.o.client.applyStatus(
        kind,
        { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: { namespace, name }, status },
        { force: true },
      );
      this.lastWritten = text;
      this.failures = 0;
      this.o.onWrite?.('written');
      this.o.log.debug({ namespace, name, kind: kind.kind }, 'Status written');
    } catch (err) {
      const delay = backoffDelay(
        this.o.retry ?? defaultRetry,
        this.failures++,
        this.o.random ?? systemRandom(),
      );
      this.notBefore = clock.now() + Math.max(interval, delay);
      this.o.onWrite?.('failed');
      this.o.log.warn(
        { err, namespace, name, kind: kind.kind, attempt: this.failures },
        'Status write failed; retrying',
      );
      this.poke();
    }
  }
}
