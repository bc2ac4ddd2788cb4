// Lease-based leader election (coordination.k8s.io/v1) with client-go semantics: a standby judges expiry by when it
// *observed* the lease change (never by comparing clocks), writes carry the resourceVersion they read (optimistic
// concurrency: a lost race is a 409, not a split brain), the leader gives up when it cannot renew within
// renewDeadline, and releases the lease on graceful shutdown so a standby takes over at once.
//
// Beyond client-go, a standby watches the Lease (given a RestClient) so it observes each renewal when it happens,
// and attempts exactly when the observed claim runs out (observed + leaseDuration) instead of at its next poll: a
// killed leader renewed before it died, so it is replaced within leaseDuration of the kill (plus one API round
// trip). Polling every retryPeriod goes on underneath, and is all there is while the watch is down.
import { pino, type Logger } from 'pino';
import { microTime, sleep, systemClock, systemRandom, type Clock, type Random } from '../clock';
import { KubeMetrics } from '../metrics';
import { isApiError, type RestClient } from '../rest/rest';
import type { KubeClient } from '../write/client';
import { LeaseKind, type Lease } from './lease';
import { LeaseObservations, type Seen } from './lease-observations';
import { watchLease, type LeaseEvent } from './lease-watch';
import { LoopDelay } from './loop-delay';

export { LeaseKind, type LeaseSpec } from './lease';

/** Why leading ended. `lost`: renewal failed past the deadline (exit now); `released`: graceful shutdown. */
export type StoppedLeading = { reason: 'lost' | 'released' };

export interface LeaseElectorOptions {
  client: KubeClient;
  /**
   * Watches the Lease while standing by (needs RBAC `watch` on leases), so renewals and releases are observed
   * when they happen. Without it, or while the watch is down (a 403 included), the standby observes by polling,
   * up to one jittered retry period late, and takeover after a kill comes that much later.
   */
  rest?: RestClient;
  namespace: string;
  name: string;
  /** Unique per process, e.g. the pod name plus a random suffix. */
  identity: string;
  /** How long a lease is valid after its last observed renewal; a standby attempts the moment it runs out. Default 15 s. */
  leaseDurationMs?: number;
  /**
   * A renewal round (retryPeriodMs after the last renewal) gives up after this long, and the leader stops: client-go's
   * renewDeadline. Default 10 s; retryPeriodMs + renewDeadlineMs must be below leaseDurationMs.
   */
  renewDeadlineMs?: number;
  /** Time between attempts. Default 2 s (acquire attempts are jittered up to ×2.2). */
  retryPeriodMs?: number;
  /** Give the lease up on graceful shutdown. Default true. */
  releaseOnCancel?: boolean;
  onStartedLeading?: () => void;
  /** Called once when leading ends; on `lost` the process entry should exit. */
  onStoppedLeading?: (why: StoppedLeading) => void;
  onNewLeader?: (identity: string) => void;
  clock?: Clock;
  random?: Random;
  log?: Logger;
  metrics?: KubeMetrics;
}

export class LeaseElector {
  private readonly o: LeaseElectorOptions;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly log: Logger;
  private readonly metrics: KubeMetrics;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly retryMs: number;
  private readonly observations: LeaseObservations;
  /** Local time the latest acquire-or-renew attempt started. */
  private attemptedAt = -Infinity;
  /** Cuts the standby's current wait short; set only while it waits. */
  private wake: (() => void) | undefined;
  private leader = false;
  private running = false;
  private loop: Promise<void> | undefined;
  private leadWaiters: Array<() => void> = [];
  /** The Lease as this process last wrote it: what the leader renews without reading it first. */
  private written: Lease | undefined;
  private readonly loopDelay = new LoopDelay();

  constructor(options: LeaseElectorOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock();
    this.random = options.random ?? systemRandom();
    this.log = (options.log ?? pino({ level: 'silent' })).child({
      lease: `${options.namespace}/${options.name}`,
      identity: options.identity,
    });
    this.metrics = options.metrics ?? new KubeMetrics({ component: 'kube' });
    this.leaseMs = options.leaseDurationMs ?? 15_000;
    this.renewMs = options.renewDeadlineMs ?? 10_000;
    this.retryMs = options.retryPeriodMs ?? 2_000;
    if (!(this.retryMs + this.renewMs < this.leaseMs) || !(this.retryMs < this.renewMs)) {
      throw new Error('lease elector: need retryPeriodMs < renewDeadlineMs, and their sum < leaseDurationMs');
    }
    this.observations = new LeaseObservations(this.leaseMs);
  }

  /** Starts contending in the background and resolves at once (a standby is ready too). */
  start(signal: AbortSignal): Promise<void> {
    if (this.loop) throw new Error('lease elector started twice');
    this.running = true;
    this.metrics.leader.set({ lease: this.o.name }, 0);
    this.loop = this.run(signal)
      .catch((err: unknown) => this.log.error({ err }, 'Lease elector failed'))
      .finally(() => {
        this.running = false;
      });
    return Promise.resolve();
  }

  /** For probes: contending or leading (leader or standby). */
  ready(): boolean {
    return this.running;
  }

  isLeader(): boolean {
    return this.leader;
  }

  /** Resolves when this process becomes leader (at once if it is). */
  leading(): Promise<void> {
    if (this.leader) return Promise.resolve();
    return new Promise((resolve) => this.leadWaiters.push(resolve));
  }

  /** Resolves when the loop has ended (after release on graceful shutdown). */
  whenStopped(): Promise<void> {
    return this.loop ?? Promise.resolve();
  }

  private async run(signal: AbortSignal): Promise<void> {
    if (!(await this.acquire(signal)) || signal.aborted) return;
    this.setLeader(true);
    let lastRenew = this.clock.now();
    this.loopDelay.start();
    while (!signal.aborted) {
      await sleep(this.clock, this.retryMs, signal);
      if (signal.aborted) break;
      const started = this.clock.now();
      // client-go's renew loop: each round may retry for renewDeadline from its own start, which is retryPeriod
      // after the last renewal. A standby waits leaseDuration from when it observed that renewal (later than it
      // was written), so this leader stops at least leaseDuration - renewDeadline - retryPeriod before any takeover.
      const renewed = await this.renewUntil(started + this.renewMs, signal);
      this.renewed(started, lastRenew, renewed);
      if (renewed) lastRenew = this.clock.now();
      else if (!signal.aborted) return this.stopLeading('lost');
    }
    this.loopDelay.stop();
    if (this.o.releaseOnCancel !== false) await this.release();
    this.stopLeading('released');
  }

  /** Logs a renewal that took over half a retry period, or failed, with the event loop's worst delay meanwhile. */
  private renewed(started: number, lastRenew: number, ok: boolean): void {
    const now = this.clock.now();
    const loopDelayMaxMs = this.loopDelay.take();
    this.metrics.leaderRenewDuration.observe({ lease: this.o.name }, (now - started) / 1000);
    if (ok && now - started <= this.retryMs / 2) return;
    const fields = { renewMs: now - started, sinceLastRenewMs: now - lastRenew, loopDelayMaxMs };
    this.log.warn(fields, ok ? 'Lease renewal slow' : 'Lease renewal failed');
  }

  /** Standby: attempts until this process leads (true) or `signal` aborts (false), watching the Lease meanwhile. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    const watching = new AbortController();
    const stopWatching = (): void => watching.abort();
    signal.addEventListener('abort', stopWatching, { once: true });
    const watched = this.o.rest ? this.watch(this.o.rest, watching.signal) : Promise.resolve();
    try {
      while (!signal.aborted) {
        if (await this.attempt(signal, this.retryMs)) return true;
        await this.awaitTurn(signal);
      }
      return false;
    } finally {
      signal.removeEventListener('abort', stopWatching);
      watching.abort();
      await watched;
    }
  }

  /**
   * Waits for the next (jittered) retry tick, or less: until the observed claim runs out. That instant starts one
   * attempt, unless an attempt already started at or after it (then a failed attempt, say on a 409 or a 503, is
   * retried on the retry period, not in a loop). Each change observed by the watch recomputes the wait, so a
   * renewal pushes the attempt back and a release or deletion brings it forward to now.
   */
  private async awaitTurn(signal: AbortSignal): Promise<void> {
    const retryAt = this.clock.now() + this.retryMs * (1 + 1.2 * this.random());
    while (!signal.aborted) {
      const expiry = this.observations.expiresAt(this.o.identity);
      const due = expiry !== undefined && expiry > this.attemptedAt ? Math.min(retryAt, expiry) : retryAt;
      const left = due - this.clock.now();
      if (left <= 0) return;
      await this.nap(left, signal);
    }
  }

  /** Sleeps `ms`, cut short by `signal` or by {@link wake}. */
  private async nap(ms: number, signal: AbortSignal): Promise<void> {
    const cut = new AbortController();
    const onAbort = (): void => cut.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.wake = onAbort;
    try {
      await sleep(this.clock, ms, cut.signal);
    } finally {
      this.wake = undefined;
      signal.removeEventListener('abort', onAbort);
    }
  }

  private watch(rest: RestClient, signal: AbortSignal): Promise<void> {
    const options = {
      rest,
      namespace: this.o.namespace,
      name: this.o.name,
      clock: this.clock,
      random: this.random,
      log: this.log,
      backoffBaseMs: this.retryMs,
      // A live leader renews every retryPeriod; nothing for two lease durations means a dead watch (or no leader,
      // and then this standby is attempting anyway).
      stallTimeoutMs: 2 * this.leaseMs,
      onEvent: (event: LeaseEvent) => this.watched(event),
    };
    return watchLease(options, signal);
  }

  private watched(event: LeaseEvent): void {
    const now = this.clock.now();
    const seen =
      event.type === 'seen' ? this.observe(event.lease, now) : this.observations.recordDeleted(event.rv, now);
    if (seen === 'changed') this.wake?.();
  }

  /** Retries every retryPeriod until a renewal succeeds or the deadline passes. */
  private async renewUntil(deadline: number, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const left = deadline - this.clock.now();
      if (left <= 0 || signal.aborted) return false;
      if (await this.attempt(signal, left)) return true;
      await sleep(this.clock, Math.min(this.retryMs, Math.max(deadline - this.clock.now(), 0)), signal);
    }
  }

  /** One tryAcquireOrRenew, bounded by `budgetMs`. Errors count as "not acquired". */
  private async attempt(signal: AbortSignal, budgetMs: number): Promise<boolean> {
    const bounded = new AbortController();
    const onAbort = (): void => bounded.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    // The cut runs after the I/O callbacks already due: when a long synchronous stretch held the event loop past the
    // budget, an answer that arrived in time (its socket is readable) still counts instead of being aborted unread.
    const timer = this.clock.setTimeout(() => setImmediate(onAbort), budgetMs);
    try {
      return await this.tryAcquireOrRenew(bounded.signal);
    } catch (err) {
      // An attempt cut short by shutdown is expected, not a failure worth a warning.
      if (!signal.aborted) this.log.warn({ err }, 'Lease attempt failed');
      return false;
    } finally {
      this.clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    this.attemptedAt = now;
    if (this.leader && (await this.renewWritten(now, signal))) return true;
    const ref = { namespace: this.o.namespace, name: this.o.name };
    const lease = await this.o.client.get<Lease>(LeaseKind, ref, signal);
    if (!lease) return this.write('create', this.desired(undefined, now), signal);
    // A read older than what the watch already delivered decides nothing (an update from it would get a 409).
    if (this.observe(lease, now) === 'stale') return false;
    if (this.observations.claimedByOther(this.o.identity, now)) return false;
    return this.write('update', this.desired(lease, now), signal);
  }

  /**
   * client-go's fast path: the leader updates the Lease it last wrote, at that resourceVersion, without reading it
   * first (one round trip, not two). A 409 or any other failure falls back to reading it.
   */
  private async renewWritten(now: number, signal: AbortSignal): Promise<boolean> {
    if (!this.written) return false;
    try {
      return await this.write('update', this.desired(this.written, now), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      this.log.warn({ err }, 'Lease renewal without a read failed, reading the Lease');
      return false;
    }
  }

  private desired(lease: Lease | undefined, now: number): Lease {
    const spec = lease?.spec ?? {};
    const mine = spec.holderIdentity === this.o.identity;
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        namespace: this.o.namespace,
        name: this.o.name,
        resourceVersion: lease?.metadata?.resourceVersion,
      },
      spec: {
        holderIdentity: this.o.identity,
        leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
        acquireTime: mine && spec.acquireTime ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: lease ? (spec.leaseTransitions ?? 0) + (mine ? 0 : 1) : 0,
      },
    };
  }

  private async write(verb: 'create' | 'update', lease: Lease, signal: AbortSignal): Promise<boolean> {
    try {
      const written =
        verb === 'create'
          ? await this.o.client.create<Lease>(LeaseKind, lease, signal)
          : await this.o.client.update<Lease>(LeaseKind, lease, signal);
      this.observe(written, this.clock.now());
      this.written = written;
      return true;
    } catch (err) {
      if (isApiError(err, 409)) return false;
      throw err;
    }
  }

  private observe(lease: Lease, now: number): Seen {
    const before = this.observations.latest()?.holder;
    const seen = this.observations.record(lease, now);
    const holder = this.observations.latest()?.holder ?? '';
    if (seen === 'changed' && holder !== before && holder !== '') {
      this.log.info({ holder }, 'New leader observed');
      try {
        this.o.onNewLeader?.(holder);
      } catch (err) {
        this.log.error({ err }, 'onNewLeader failed');
      }
    }
    return seen;
  }

  /** Gives the lease up (holder cleared, 1 s duration) if we still hold it at the version we last wrote. */
  private async release(): Promise<void> {
    const observed = this.observations.latest();
    if (!observed || observed.holder !== this.o.identity) return;
    const now = this.clock.now();
    const body: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: this.o.namespace, name: this.o.name, resourceVersion: observed.rv },
      spec: {
        leaseDurationSeconds: 1,
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: observed.transitions,
      },
    };
    try {
      await this.o.client.update(LeaseKind, body);
      this.log.info('Lease released');
    } catch (err) {
      this.log.warn({ err }, 'Lease release failed');
    }
  }

  private setLeader(leader: boolean): void {
    this.leader = leader;
    this.metrics.leader.set({ lease: this.o.name }, leader ? 1 : 0);
    this.metrics.leaderTransitions.inc({ lease: this.o.name });
    if (!leader) return;
    this.log.info('Started leading');
    for (const wake of this.leadWaiters.splice(0)) wake();
    this.o.onStartedLeading?.();
  }

  private stopLeading(reason: StoppedLeading['reason']): void {
    this.loopDelay.stop();
    this.setLeader(false);
    if (reason === 'lost') this.log.error('Leader election lost');
    else this.log.info('Stopped leading');
    this.o.onStoppedLeading?.({ reason });
  }
}
