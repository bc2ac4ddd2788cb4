// Writes StatusTracker's view into ProxyServer.status (status.xds and the ConfigAccepted condition) through
// @oooi/kube's StatusReporter: server-side apply under this process's own field manager, at most once per
// interval, only when it changed, retried with backoff.
import { StatusReporter, type Clock, type Condition, type KindDescriptor, type KubeClient } from '@oooi/kube';
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
  private generation: number | undefined;
  private readonly reporter: StatusReporter;

  constructor(o: StatusWriterOptions) {
    this.reporter = new StatusReporter({
      client: o.client,
      kind: o.kind,
      namespace: o.namespace,
      name: o.name,
      clock: o.clock,
      log: o.log,
      ...(o.intervalMs !== undefined ? { intervalMs: o.intervalMs } : {}),
      build: () => {
        const { xds, configAccepted } = o.tracker.current();
        return {
          fields: { xds },
          conditions: [
            { type: 'ConfigAccepted', ...configAccepted, observedGeneration: this.generation ?? 0 },
          ],
        };
      },
    });
  }

  /** The object as last seen (its generation, and our condition's previous transition time). */
  observed(generation: number | undefined, conditions: readonly Condition[] | undefined): void {
    this.generation = generation;
    this.reporter.observed((conditions ?? []).filter((c) => c.type === 'ConfigAccepted'));
  }

  /** Schedules a write (coalesced; rate-limited). */
  poke(): void {
    this.reporter.poke();
  }

  stop(): void {
    this.reporter.stop();
  }
}
