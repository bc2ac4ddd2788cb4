// How late the event loop ran, between two renewals of the leader (perf_hooks' event-loop delay histogram). A
// renewal is a timer and a socket callback: synchronous work that holds the loop holds the renewal too, so the
// elector logs the worst delay since the last renewal with every slow or failed one (what a lost Lease is
// diagnosed by).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export class LoopDelay {
  private histogram: IntervalHistogram | undefined;

  start(): void {
    if (this.histogram) return;
    this.histogram = monitorEventLoopDelay({ resolution: 20 });
    this.histogram.enable();
  }

  stop(): void {
    this.histogram?.disable();
    this.histogram = undefined;
  }

  /** The longest delay since the last {@link take}, in ms (0 when not started), and starts a new window. */
  take(): number {
    const h = this.histogram;
    if (!h || h.count === 0) return 0;
    const ms = Math.round(h.max / 1e6);
    h.reset();
    return ms;
  }
}
