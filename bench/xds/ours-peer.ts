// ours-peer: oooi-xds's serving core (Publisher → SnapshotCache → AdsServer, wired as src/main.ts wires them) under
// the same control channel as gcp-peer, so bench/xds drives both servers the same way. A test peer, not product:
// run.ts bundles it with esbuild and runs the bundle on Node (as the oooi-xds image runs its bundle).
//
// stdin, one command a line:  load SPEC.json  |  quit
// stdout, one JSON event a line:
//   {"ev":"ready","port":N}
//   {"ev":"set","seq":N,"decodeMs":..,"buildMs":..,"setMs":..,"clusterVersion":..,"listenerVersion":..}
//     decodeMs: read + JSON.parse; buildMs: validate + translate + hash (Publisher, up to SnapshotCache.set);
//     setMs: SnapshotCache.set, which hands the new snapshot to every open stream (responses written)
//   {"ev":"acked","seq":N,"sinceLoadMs":..,"sinceSetMs":..,"cdsMs":..,"ldsMs":..}   Envoy ACKed both types at the
//     versions of load N (cdsMs, ldsMs: when each type's ACK came, from the set; 0 for a type that did not change)
//   {"ev":"nack","type":..,"version":..,"message":..}  |  {"ev":"error","message":..}
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ProxyServerSpec } from '@oooi/api';
import { TYPE_URL } from '@oooi/envoy';
import { AdsServer, Publisher, SnapshotCache, XdsMetrics, type Snapshot } from '@oooi/xds';
import { pino } from 'pino';
import { Registry } from 'prom-client';

const emit = (ev: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(ev)}\n`);
const ms = (a: number, b: number): number => Math.round((b - a) * 1000) / 1000;

/** What Envoy ACKed per type, and whether the versions of the last load are all ACKed (and when, per type). */
class Tracker {
  private readonly acked = new Map<string, string>();
  private want:
    | { seq: number; versions: Map<string, string>; loadedAt: number; setAt: number; at: Map<string, number> }
    | undefined;

  expect(seq: number, snapshot: Snapshot, loadedAt: number, setAt: number): void {
    const versions = new Map([...snapshot.types].map(([url, t]) => [url, t.version]));
    const at = new Map(
      [...versions].filter(([url, v]) => this.acked.get(url) === v).map(([url]) => [url, setAt]),
    );
    this.want = { seq, versions, loadedAt, setAt, at };
    this.check();
  }

  ack(typeUrl: string, version: string): void {
    this.acked.set(typeUrl, version);
    if (this.want?.versions.get(typeUrl) === version) this.want.at.set(typeUrl, performance.now());
    this.check();
  }

  private check(): void {
    const w = this.want;
    if (!w || [...w.versions].some(([url, v]) => this.acked.get(url) !== v)) return;
    const now = performance.now();
    this.want = undefined;
    const typeMs = (url: string): number => ms(w.setAt, w.at.get(url) ?? now);
    emit({
      ev: 'acked',
      seq: w.seq,
      sinceLoadMs: ms(w.loadedAt, now),
      sinceSetMs: ms(w.setAt, now),
      cdsMs: typeMs(TYPE_URL.cluster),
      ldsMs: typeMs(TYPE_URL.listener),
    });
  }
}

/** A SnapshotCache that notes when set() is entered, so the build and the push are timed apart. */
class TimedCache extends SnapshotCache {
  setAt = 0;
  onSet: (s: Snapshot) => void = () => undefined;
  override set(snapshot: Snapshot): boolean {
    this.setAt = performance.now();
    this.onSet(snapshot);
    return super.set(snapshot);
  }
}

async function main(): Promise<void> {
  const listen = process.argv[process.argv.indexOf('--listen') + 1] ?? '127.0.0.1:0';
  const log = pino({ level: 'info', base: { component: 'xds' } }, pino.destination(2));
  const metrics = new XdsMetrics(new Registry());
  const cache = new TimedCache();
  const tracker = new Tracker();
  const ads = new AdsServer({
    cache,
    listen,
    log,
    metrics,
    events: {
      onAck: (e) => tracker.ack(e.typeUrl, e.version),
      onNack: (e) => emit({ ev: 'nack', type: e.typeUrl, version: e.version, message: e.message }),
    },
  });
  const publisher = new Publisher({ cache, metrics, log });
  const stop = new AbortController();
  await ads.start(stop.signal);
  emit({ ev: 'ready', port: ads.port() });

  let seq = 0;
  const load = (path: string): void => {
    const t0 = performance.now();
    const spec = JSON.parse(readFileSync(path, 'utf8')) as ProxyServerSpec;
    const t1 = performance.now();
    seq++;
    cache.onSet = (s) => tracker.expect(seq, s, t0, cache.setAt);
    const r = publisher.publish(spec);
    const t2 = performance.now();
    if (r.kind === 'invalid') return emit({ ev: 'error', message: JSON.stringify(r.errors.slice(0, 3)) });
    const [cds, lds] = [r.snapshot.types.get(TYPE_URL.cluster), r.snapshot.types.get(TYPE_URL.listener)];
    emit({
      ev: 'set',
      seq,
      decodeMs: ms(t0, t1),
      buildMs: ms(t1, cache.setAt),
      setMs: ms(cache.setAt, t2),
      clusterVersion: cds?.version,
      listenerVersion: lds?.version,
      clusters: cds?.resources.length,
      listeners: lds?.resources.length,
    });
  };
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const f = line.trim().split(/\s+/);
    try {
      if (f[0] === 'load' && f.length === 2) load(f[1]!);
      else if (f[0] === 'quit') break;
      else if (f[0] !== '') emit({ ev: 'error', message: `unknown command: ${line}` });
    } catch (err) {
      emit({ ev: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  }
  stop.abort();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
