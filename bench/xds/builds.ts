// Snapshot build time per size, no Envoy attached. Ours in this process, step by step (validate, translate, hash:
// the pure functions oooi-xds calls), and inside each server process (ours-peer: read + parse the spec, then
// validate + translate + hash; gcp-peer: read + decode the resources, then per-type content versions + snapshot,
// then Consistent()). Loads alternate between the two servers.
import { join } from 'node:path';
import { translateProxyServer, validateProxyServer } from '@oooi/envoy';
import { buildSnapshot } from '@oooi/xds';
import { benchSpec } from './attachments';
import { writeInputs } from './inputs';
import { Peer } from './peers';
import type { Ctx, Options } from './context';

export interface BuildResult {
  n: number;
  chains: number;
  clusters: number;
  bytes: number;
  inProcess: { validate: number[]; translate: number[]; hash: number[] };
  ours: { decode: number[]; build: number[] };
  gcp: { decode: number[]; build: number[]; consistent: number[] };
}

function inProcess(n: number, reps: number): BuildResult['inProcess'] {
  const spec = benchSpec(n);
  const out: BuildResult['inProcess'] = { validate: [], translate: [], hash: [] };
  for (let r = -3; r < reps; r++) {
    const t0 = performance.now();
    const checked = validateProxyServer(spec);
    const t1 = performance.now();
    const resources = translateProxyServer(spec);
    const t2 = performance.now();
    buildSnapshot(resources);
    const t3 = performance.now();
    if (!checked.ok) throw new Error('bench spec invalid');
    if (r < 0) continue; // warm-up
    out.validate.push(t1 - t0);
    out.translate.push(t2 - t1);
    out.hash.push(t3 - t2);
  }
  return out;
}

export async function measureBuilds(ctx: Ctx, o: Options): Promise<BuildResult[]> {
  const start = (name: 'ours' | 'gcp'): Promise<Peer> =>
    Peer.start({
      name,
      argv: [...ctx.argv[name], '--listen', '127.0.0.1:18000'],
      ns: ctx.ns[name],
      logFile: join(ctx.dir, `${name}-builds.peer.log`),
    });
  const [ours, gcp] = [await start('ours'), await start('gcp')];
  const results: BuildResult[] = [];
  try {
    for (const n of o.translateSizes) {
      const input = writeInputs(ctx.dir, `build-${n}`, benchSpec(n));
      const res: BuildResult = {
        n,
        chains: input.chains,
        clusters: input.clusters,
        bytes: input.bytes,
        inProcess: inProcess(n, o.translateReps),
        ours: { decode: [], build: [] },
        gcp: { decode: [], build: [], consistent: [] },
      };
      for (let r = -3; r < o.translateReps; r++) {
        const a = await ours.load(input.ours);
        const b = await gcp.load(input.gcp);
        if (r < 0) continue;
        res.ours.decode.push(a.decodeMs);
        res.ours.build.push(a.buildMs);
        res.gcp.decode.push(b.decodeMs);
        res.gcp.build.push(b.buildMs);
        res.gcp.consistent.push(b.consistentMs ?? NaN);
      }
      console.log(
        `  build n=${n}: ${input.chains} chains, ${input.clusters} clusters (${input.fingerprint})`,
      );
      results.push(res);
    }
  } finally {
    await ours.stop();
    await gcp.stop();
  }
  return results;
}
