// One measured block: every server (each with its own Envoy, in its own namespace) converges on N attachments, then
// they take REPS one-attachment changes, interleaved (the order flips every repetition). And the "full rebuild"
// comparison: the anchor fed a listener-level change with every load, so Envoy cannot update in place.
import { join } from 'node:path';
import { sleep, waitFor } from '@oooi/rig';
import { benchSpec } from './attachments';
import type { Ctx, Options } from './context';
import { startEnvoy, type BenchEnvoy } from './envoy';
import { writeInputs, type Inputs } from './inputs';
import { Peer, rssMiB, type ServerName } from './peers';
import type { BlockResult, FullRebuildResult } from './report';

const ADS_PORT = 18000;
const STATS =
  '^(listener_manager\\.(listener_in_place_updated|listener_modified|lds\\.update_(success|rejected))|cluster_manager\\.(cluster_modified|cluster_added|cluster_removed|cds\\.update_(success|rejected)))$';

interface Running {
  peer: Peer;
  envoy: BenchEnvoy;
}

/** Starts SERVER's peer with INPUT loaded, then its Envoy; measures Envoy start → both types ACKed, → /ready. */
async function converge(
  ctx: Ctx,
  o: { server: ServerName; mode: 'sotw' | 'delta'; n: number; input: Inputs; label?: string },
): Promise<Running & { ackMs: number; readyMs: number }> {
  const label = `${o.server}-${o.mode}-${o.n}${o.label ? `-${o.label}` : ''}`;
  const peer = await Peer.start({
    name: o.server,
    argv: [...ctx.argv[o.server], '--listen', `127.0.0.1:${ADS_PORT}`],
    ns: ctx.ns[o.server],
    logFile: join(ctx.dir, `${label}.peer.log`),
  });
  const set = await peer.load(o.input[o.server]);
  const envoy = await startEnvoy({
    ns: ctx.ns[o.server],
    dir: ctx.dir,
    label,
    xdsPort: ADS_PORT,
    delta: o.mode === 'delta',
  });
  const acked = await peer.acked(set.seq);
  await waitFor(`${label} Envoy /ready`, () => envoy.ready(), { timeoutMs: 180_000, everyMs: 10 });
  const readyMs = performance.now() - envoy.startedAt;
  return { peer, envoy, ackMs: acked.at - envoy.startedAt, readyMs };
}

export async function block(
  ctx: Ctx,
  o: Options,
  b: { mode: 'sotw' | 'delta'; n: number; order: ServerName[] },
): Promise<BlockResult> {
  const { mode, n, order } = b;
  const changedIndex = Math.floor(n / 2);
  const base = writeInputs(ctx.dir, `n${n}-base`, benchSpec(n));
  const changed = writeInputs(ctx.dir, `n${n}-changed`, benchSpec(n, new Map([[changedIndex, 1]])));
  const res: BlockResult = { mode, n, input: base, order, servers: {} as BlockResult['servers'] };
  const running = {} as Record<ServerName, Running>;
  try {
    for (const server of order) {
      const c = await converge(ctx, { server, mode, n, input: base });
      running[server] = c;
      res.servers[server] = {
        ackMs: c.ackMs,
        readyMs: c.readyMs,
        change: [],
        push: [],
        cds: [],
        lds: [],
        build: [],
        envoyRss: await rssMiB(c.envoy.proc.ref.pid),
        serverRss: await rssMiB(c.peer.pid),
        statsBefore: await c.envoy.stats(STATS),
        statsAfter: {},
        nacks: 0,
      };
      console.log(
        `  ${mode} n=${n} ${server}: converged, ACK ${c.ackMs.toFixed(0)} ms, /ready ${c.readyMs.toFixed(0)} ms`,
      );
    }
    for (let r = 0; r < o.reps; r++) {
      const input = r % 2 === 0 ? changed : base;
      for (const server of r % 2 === 0 ? order : [...order].reverse()) {
        const { peer } = running[server];
        const set = await peer.load(input[server]);
        const acked = await peer.acked(set.seq, 60_000);
        const s = res.servers[server];
        s.change.push(acked.sinceLoadMs);
        s.push.push(acked.sinceSetMs);
        s.cds.push(acked.cdsMs);
        s.lds.push(acked.ldsMs);
        s.build.push(set.buildMs + (set.consistentMs ?? 0));
        await sleep(200);
      }
    }
    for (const server of order) {
      const { peer, envoy } = running[server];
      const s = res.servers[server];
      s.statsAfter = await envoy.stats(STATS);
      s.envoyRss = await rssMiB(envoy.proc.ref.pid);
      s.serverRss = await rssMiB(peer.pid);
      s.nacks = peer.nacks.length;
    }
    const line = (s: ServerName): string =>
      `${s} ${res.servers[s].change.map((x) => x.toFixed(0)).join(',')}`;
    console.log(`  ${mode} n=${n} one change → ACK ms: ${order.map(line).join(' | ')}`);
  } finally {
    for (const server of order) {
      await running[server]?.envoy.proc.stop();
      await running[server]?.peer.stop();
    }
  }
  return res;
}

/**
 * go-control-plane with one chain per backend (the anchor), SotW, N attachments, every load also changing the Listeners' stat_prefix (a listener-level
 * field): Envoy then builds every chain of both listeners again and drains the old ones, which is what a
 * listener shape without in-place updates costs. Compared with the in-place figures of the same server.
 */
export async function fullRebuild(ctx: Ctx, o: Options, n: number): Promise<FullRebuildResult> {
  const k = Math.floor(n / 2);
  const inputs = [0, 1].map((v) =>
    writeInputs(ctx.dir, `n${n}-full${v}`, benchSpec(n, new Map([[k, v]])), `full-${v}`),
  );
  const c = await converge(ctx, { server: 'anchor', mode: 'sotw', n, input: inputs[0]!, label: 'full' });
  const res: FullRebuildResult = {
    n,
    change: [],
    push: [],
    statsBefore: await c.envoy.stats(STATS),
    statsAfter: {},
  };
  try {
    for (let r = 0; r < o.reps; r++) {
      const set = await c.peer.load(inputs[(r + 1) % 2]!.anchor);
      const acked = await c.peer.acked(set.seq, 60_000);
      res.change.push(acked.sinceLoadMs);
      res.push.push(acked.sinceSetMs);
      await sleep(200);
    }
    res.statsAfter = await c.envoy.stats(STATS);
    console.log(
      `  full rebuild n=${n} anchor one change → ACK ms: ${res.change.map((x) => x.toFixed(0)).join(',')}`,
    );
  } finally {
    await c.envoy.proc.stop();
    await c.peer.stop();
  }
  return res;
}
