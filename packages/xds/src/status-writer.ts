// Writes StatusTracker's view into ProxyServer.status (status.xds and the ConfigAccepted condition) with
// server-side apply under this process's own field manager, at most once per interval and only when it changed.
import { API_VERSION } from '@oooi/api';
import {
  canonicalJson,
  setCondition,
  type Clock,
  type Condition,
  type KindDescriptor,
  type KubeClient,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { StatusTracker } from './status-tracker';

export const FIELD_MANAGER = 'oooi-xds';

export interface StatusWriterOptions {
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  readonly namespace: string;
  readonly name: string;
  readonly tracker: StatusTracker;
  readonly clock: Clock;
  readonly log: Logger;
  /** Minimum time between two writes. @default 1000 */
  readonly intervalMs?: number;
}

export class StatusWriter {
  private last = '';
  private conditions: Condition[] = [];
  private generation: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastWriteAt = -Infinity;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly o: StatusWriterOptions) {}

  /** The object as last seen (its generation, and our condition's previous transition time). */
  observed(generation: number | undefined, conditions: readonly Condition[] | undefined): void {
    this.generation = generation;
    const ours = (conditions ?? []).filter((c) => c.type === 'ConfigAccepted');
    if (this.conditions.length === 0) this.conditions = ours;
  }

  /** Schedules a write (coalesced; rate-limited). */
  poke(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastWriteAt + (this.o.intervalMs ?? 1000) - this.o.clock.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.flush());
    }, wait);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private body(): Record<string, unknown> {
    const { xds, configAccepted } = this.o.tracker.current();
    this.conditions = setCondition(
      this.conditions,
      { type: 'ConfigAccepted', ...configAccepted, observedGeneration: this.generation ?? 0 },
      this.o.clock.now(),
    );
    return { xds, conditions: this.conditions };
  }

  private async flush(): Promise<void> {
    const status = this.body();
    const text = canonicalJson(status);
    if (text === this.last) return;
    this.lastWriteAt = this.o.clock.now();
    const { kind, namespace, name } = this.o;
    try {
      await this.o.client.applyStatus(
        kind,
        { apiVersion: API_VERSION, kind: kind.kind, metadata: { namespace, name }, status },
        { force: true },
      );
      this.last = text;
      this.o.log.info({ namespace, name, xds: status.xds }, 'Status written');
    } catch (err) {
      this.o.log.warn({ err, namespace, name }, 'Status write failed; retrying');
      this.poke();
    }
  }
}
