// The bench's printed report: one table row per run, then per run where its writes, CPU, memory and time went.
import { total, type Passes, type WriteCounts } from './observe';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

export interface Result {
  variant: string;
  /** The bench wrote the controller's output itself (replay.ts): no controller, so no passes, memory or edits. */
  replay?: boolean;
  n: number;
  infras: number;
  /** Load average (1 min) when the size started and when it converged. */
  load: [number, number];
  applySeconds: number;
  convergeSeconds: number;
  /** From the process's first log line ("Health server listening": node started, bundle loaded). */
  convergeFromReadySeconds: number;
  writes: WriteCounts;
  controllerCounted: number;
  idleWrites: WriteCounts;
  idleLeaseWrites: number;
  idleSeconds: number;
  rss: number;
  /** The highest RSS so far (VmHWM) when convergence was read. */
  peakRss: number;
  /** The V8 heap by space and external memory at convergence (memoryLine). */
  memory: string;
  /** RSS again at the end of the idle window (when there was one). */
  rssAfterIdle: number | undefined;
  memoryAfterIdle: string | undefined;
  editMs: number[];
  /** The apiserver's floor: N attachment status server-side applies at the controller's attachment concurrency. */
  floorSeconds: number;
  /** CPU seconds each process used during convergence and during the floor (`cpuLine`). */
  cpu: { converge: string; floor: string };
  /** Requests that waited for the controller's client-side rate limiter during convergence, and their total wait. */
  throttled: { count: number; seconds: number };
  /** The apiserver's mean time per write, by resource, during convergence and the floor (`serverTimes`). */
  server: { converge: string; floor: string };
  /** The same for GETs and LISTs during convergence (everyone's: the controller's, the bench's, the rig's). */
  reads: string;
  /** Per controller: passes and the seconds they took (from the controller's own metrics). */
  passes: Passes;
  /** When each kind of thing convergence waited for was done (`Watcher.milestones`). */
  milestones: string;
}

export function report(results: Result[], idleSeconds: number): void {
  say(`\n# controller bench (${new Date().toISOString()}), idle period ${idleSeconds} s`);
  say(
    '| controller | N (Infras) | converge s (from process start) | from first log line | apiserver floor s | converge/floor | writes (apiserver) | writes/attachment | writes (controller metrics) | idle writes | RSS MiB | load 1 min (start → converged) |',
  );
  say('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const writes = total(r.writes);
    const idle =
      r.idleSeconds > 0
        ? `${total(r.idleWrites)} in ${r.idleSeconds} s (+${r.idleLeaseWrites} Lease renewals)`
        : '—';
    say(
      `| ${r.variant} | ${r.n} (${r.infras}) | ${r.convergeSeconds.toFixed(1)} | ${r.convergeFromReadySeconds.toFixed(1)} | ${r.floorSeconds.toFixed(2)} | ${(r.convergeSeconds / r.floorSeconds).toFixed(1)} | ${writes} | ${(writes / r.n).toFixed(2)} | ${r.controllerCounted} | ${idle} | ${r.rss.toFixed(0)}${r.rssAfterIdle !== undefined ? ` (${r.rssAfterIdle.toFixed(0)} after the idle window)` : ''} | ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)} |`,
    );
  }
  for (const r of results) {
    say(`\n${r.variant}, N=${r.n}: apiserver-counted writes during convergence, by verb and resource:`);
    for (const [key, value] of [...r.writes].sort()) say(`  ${key}: ${value}`);
    if (r.replay) {
      say(`  CPU while the output was written: ${r.cpu.converge}`);
      say(`  CPU during the floor: ${r.cpu.floor}`);
      say(`  apiserver time per write while the output was written: ${r.server.converge}`);
      continue;
    }
    say(
      `  passes: ${r.passes.map((p) => `${p.controller} ${p.count} (${p.seconds.toFixed(1)} s)`).join(', ')}`,
    );
    say(
      `  client-side rate limiter during convergence: ${r.throttled.count} requests waited, ${r.throttled.seconds.toFixed(1)} s in all`,
    );
    say(`  done at (from process start): ${r.milestones}`);
    say(`  CPU during convergence: ${r.cpu.converge}`);
    say(`  memory at convergence: RSS ${r.rss.toFixed(0)} MiB (peak ${r.peakRss.toFixed(0)}), ${r.memory}`);
    if (r.memoryAfterIdle !== undefined)
      say(`  memory after the idle window: RSS ${r.rssAfterIdle?.toFixed(0)} MiB, ${r.memoryAfterIdle}`);
    say(`  CPU during the floor: ${r.cpu.floor}`);
    say(`  apiserver time per write during convergence: ${r.server.converge}`);
    say(`  apiserver time per write during the floor: ${r.server.floor}`);
    say(`  apiserver reads during convergence (all clients): ${r.reads}`);
    if (total(r.idleWrites) > 0) for (const [key, value] of r.idleWrites) say(`  idle: ${key}: ${value}`);
    if (r.editMs.length > 0) {
      const sorted = [...r.editMs].sort((a, b) => a - b);
      say(
        `  edit → DNSServer and ProxyServer updated: ${r.editMs.join(', ')} ms (median ${sorted[Math.floor(sorted.length / 2)]} ms)`,
      );
    }
  }
}
