// The bench's tables (markdown, so a run can be pasted into the README as is).
import type { BuildResult } from './builds';
import type { Options } from './context';
import type { Inputs } from './inputs';
import type { ServerName } from './peers';
import { fmt, median, medP90, percentile, ratio } from './stats';

export type { BuildResult } from './builds';

export interface ServerBlock {
  ackMs: number;
  readyMs: number;
  /** One change: load command received → Envoy ACKed both types (ms). */
  change: number[];
  /** One change: snapshot handed to the cache → Envoy ACKed both types (ms). */
  push: number[];
  /** One change: snapshot handed to the cache → the Cluster ACK, the Listener ACK (ms). */
  cds: number[];
  lds: number[];
  /** One change: the server's build (ours: validate + translate + hash; gcp: versions + snapshot + Consistent). */
  build: number[];
  envoyRss: { rss: number; hwm: number };
  serverRss: { rss: number; hwm: number };
  statsBefore: Record<string, number>;
  statsAfter: Record<string, number>;
  nacks: number;
}

export interface BlockResult {
  mode: 'sotw' | 'delta';
  n: number;
  input: Inputs;
  order: ServerName[];
  servers: Record<ServerName, ServerBlock>;
}

export interface FullRebuildResult {
  n: number;
  change: number[];
  push: number[];
  statsBefore: Record<string, number>;
  statsAfter: Record<string, number>;
}

const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const head = (cells: string[]): string => `${row(cells)}\n${row(cells.map(() => '---'))}`;
const mode = (m: string): string => (m === 'sotw' ? 'SotW' : 'delta');

function builds(bs: BuildResult[]): string[] {
  const out = [
    '\nSnapshot build, ms (median / p90). ours in-process: validate, translate, hash (buildSnapshot). In the server',
    'processes: ours = validate + translate + hash; gcp = per-type content versions + snapshot, then Consistent().',
    'Decode = reading the input (ours: spec JSON; gcp: encoded resources).\n',
    head([
      'attachments (chains, clusters)',
      'ours validate',
      'ours translate',
      'ours hash',
      'ours build (process)',
      'gcp build',
      'gcp Consistent',
      'ours decode',
      'gcp decode',
      'build ours/gcp',
    ]),
  ];
  for (const b of bs) {
    const gcpTotal = b.gcp.build.map((x, i) => x + (b.gcp.consistent[i] ?? 0));
    out.push(
      row([
        `${b.n} (${b.chains}, ${b.clusters})`,
        medP90(b.inProcess.validate),
        medP90(b.inProcess.translate),
        medP90(b.inProcess.hash),
        medP90(b.ours.build),
        medP90(b.gcp.build),
        medP90(b.gcp.consistent),
        medP90(b.ours.decode),
        medP90(b.gcp.decode),
        ratio(median(b.ours.build), median(gcpTotal)),
      ]),
    );
  }
  return out;
}

/** A table with one row per block: mode, attachments, then CELLS of ours (o), gcp (g) and the anchor (a). */
function perBlock(
  bl: BlockResult[],
  intro: string[],
  columns: string[],
  cells: (o: ServerBlock, g: ServerBlock, a: ServerBlock) => (string | number)[],
): string[] {
  return [
    ...intro,
    head(['mode', 'attachments', ...columns]),
    ...bl.map((b) => row([mode(b.mode), b.n, ...cells(b.servers.ours, b.servers.gcp, b.servers.anchor)])),
  ];
}

function shapes(bl: BlockResult[]): string[] {
  const sizes = [...new Map(bl.map((b) => [b.n, b.input])).entries()];
  return [
    '\nWhat Envoy holds: as oooi-xds serves it (ours, gcp) and with one chain per backend (anchor).\n',
    head(['attachments', 'served: listeners / chains / clusters', 'anchor: listeners / chains / clusters']),
    ...sizes.map(([n, i]) =>
      row([
        n,
        `${i.listeners} / ${i.chains} / ${i.clusters}`,
        `${i.anchorShape.listeners} / ${i.anchorShape.chains} / ${i.anchorShape.clusters}`,
      ]),
    ),
  ];
}

const convergence = (bl: BlockResult[]): string[] =>
  perBlock(
    bl,
    ['\nInitial convergence, ms: Envoy started → both types ACKed / → /ready (one sample per block).\n'],
    ['ours ACK / ready', 'gcp ACK / ready', 'anchor ACK / ready', 'ours/gcp (ready)', 'ours/anchor (ready)'],
    (o, g, a) => [
      `${fmt(o.ackMs)} / ${fmt(o.readyMs)}`,
      `${fmt(g.ackMs)} / ${fmt(g.readyMs)}`,
      `${fmt(a.ackMs)} / ${fmt(a.readyMs)}`,
      ratio(o.readyMs, g.readyMs),
      ratio(o.readyMs, a.readyMs),
    ],
  );

const changes = (bl: BlockResult[]): string[] =>
  perBlock(
    bl,
    [
      '\nOne changed attachment → Envoy ACKed both types, ms (median / p90). "change" starts when the server reads the',
      'new input (ours then validates and translates; gcp decodes the translated resources); "push" starts when the',
      'snapshot is handed to the cache.\n',
    ],
    [
      'samples',
      'ours change',
      'gcp change',
      'anchor change',
      'ours/gcp change',
      '**ours/anchor change**',
      'ours push',
      'gcp push',
      'anchor push',
    ],
    (o, g, a) => [
      o.change.length,
      medP90(o.change),
      medP90(g.change),
      medP90(a.change),
      ratio(median(o.change), median(g.change)),
      `**${ratio(median(o.change), median(a.change))}**`,
      medP90(o.push),
      medP90(g.push),
      medP90(a.push),
    ],
  );

const perType = (bl: BlockResult[]): string[] =>
  perBlock(
    bl,
    [
      '\nWhere the push time goes, ms (median): snapshot handed to the cache → Envoy ACKed the Clusters / the Listeners.',
      'oooi-xds sends the Listeners only once the Clusters are ACKed (make-before-break); go-control-plane sends both at',
      'once and Envoy pauses LDS until CDS is applied. 0 = that type did not change (no ACK to wait for).\n',
    ],
    ['ours CDS ACK', 'ours LDS ACK', 'gcp CDS ACK', 'gcp LDS ACK', 'anchor CDS ACK', 'anchor LDS ACK'],
    (o, g, a) => [o.cds, o.lds, g.cds, g.lds, a.cds, a.lds].map((xs) => fmt(median(xs))),
  );

const rss = (r: { rss: number; hwm: number }): string => `${r.rss.toFixed(0)} (${r.hwm.toFixed(0)})`;

const memory = (bl: BlockResult[]): string[] =>
  perBlock(
    bl,
    ['\nRSS after the changes, MiB (peak in parentheses).\n'],
    [
      'Envoy (ours)',
      'Envoy (gcp)',
      'Envoy (anchor)',
      'oooi-xds core',
      'go-control-plane',
      'go-control-plane (anchor)',
      'server ratio ours/gcp',
    ],
    (o, g, a) => [
      rss(o.envoyRss),
      rss(g.envoyRss),
      rss(a.envoyRss),
      rss(o.serverRss),
      rss(g.serverRss),
      rss(a.serverRss),
      ratio(o.serverRss.rss, g.serverRss.rss),
    ],
  );

const delta = (s: Pick<ServerBlock, 'statsAfter' | 'statsBefore'>, k: string): number =>
  (s.statsAfter[k] ?? 0) - (s.statsBefore[k] ?? 0);

function fullRebuilds(bl: BlockResult[], full: FullRebuildResult[]): string[] {
  if (full.length === 0) return [];
  const out = [
    '\nIn place vs full rebuild (the anchor: go-control-plane, one chain per backend, SotW): the same one-attachment change, and the same change plus a',
    'listener-level field (stat_prefix), which makes Envoy rebuild every chain of both listeners, ms (median / p90).\n',
    head([
      'attachments',
      'in place: change',
      'in place: push',
      'full rebuild: change',
      'full rebuild: push',
      'in place / full',
      'listeners in place / modified (full)',
    ]),
  ];
  for (const f of full) {
    const inPlace = bl.find((b) => b.mode === 'sotw' && b.n === f.n)?.servers.anchor;
    out.push(
      row([
        f.n,
        inPlace ? medP90(inPlace.change) : '–',
        inPlace ? medP90(inPlace.push) : '–',
        medP90(f.change),
        medP90(f.push),
        inPlace ? ratio(median(inPlace.change), median(f.change)) : '–',
        `${delta(f, 'listener_manager.listener_in_place_updated')} / ${delta(f, 'listener_manager.listener_modified')}`,
      ]),
    );
  }
  return out;
}

function envoyStats(bl: BlockResult[]): string[] {
  const out = [
    '\nEnvoy during the changes (counter increases; every change alters 5 clusters, and 2 listeners in the anchor shape):',
    'listeners updated in place (only changed filter chains rebuilt and drained) vs modified; NACKs seen by the',
    'server + update_rejected.\n',
    head([
      'mode',
      'attachments',
      'server',
      'LDS updates',
      'in place',
      'modified',
      'CDS updates',
      'clusters modified / added / removed',
      'rejected',
    ]),
  ];
  for (const b of bl) {
    for (const s of b.order) {
      const x = b.servers[s];
      out.push(
        row([
          mode(b.mode),
          b.n,
          s,
          delta(x, 'listener_manager.lds.update_success'),
          delta(x, 'listener_manager.listener_in_place_updated'),
          delta(x, 'listener_manager.listener_modified'),
          delta(x, 'cluster_manager.cds.update_success'),
          `${delta(x, 'cluster_manager.cluster_modified')} / ${delta(x, 'cluster_manager.cluster_added')} / ${delta(x, 'cluster_manager.cluster_removed')}`,
          x.nacks +
            (x.statsAfter['listener_manager.lds.update_rejected'] ?? 0) +
            (x.statsAfter['cluster_manager.cds.update_rejected'] ?? 0),
        ]),
      );
    }
  }
  return out;
}

/**
 * The target: one-change ACK ≤ 0.5× go-control-plane's at the largest size, against go-control-plane as
 * its anchor was measured (one filter chain per backend). ours/gcp (same resources) is printed beside it: that is
 * the two servers alone, with Envoy doing the same work.
 */
function target(bl: BlockResult[]): string[] {
  const big = Math.max(...bl.map((b) => b.n));
  return bl
    .filter((b) => b.n === big)
    .map((b) => {
      const { ours, gcp, anchor } = b.servers;
      const r = median(ours.change) / median(anchor.change);
      const p90 = percentile(ours.change, 90) / percentile(anchor.change, 90);
      const same = median(ours.change) / median(gcp.change);
      return `target (${mode(b.mode)}, ${big} attachments): one-change ACK ours/anchor = ${r.toFixed(2)} (p90 ${p90.toFixed(2)}); goal ≤ 0.50: ${r <= 0.5 ? 'met' : 'NOT met'}; ours/gcp on the same resources = ${same.toFixed(2)}`;
    });
}

export function printReport(r: {
  start: string;
  end: string;
  options: Options;
  builds: BuildResult[];
  blocks: BlockResult[];
  full: FullRebuildResult[];
}): void {
  const lines = [
    '\n## bench/xds results',
    `\n${r.start}\nat the end: ${r.end.split('\n')[0]}`,
    `options: ${JSON.stringify(r.options)}`,
    ...builds(r.builds),
    ...shapes(r.blocks),
    ...convergence(r.blocks),
    ...changes(r.blocks),
    ...perType(r.blocks),
    ...envoyStats(r.blocks),
    ...fullRebuilds(r.blocks, r.full),
    ...memory(r.blocks),
    '',
    ...target(r.blocks),
  ];
  console.log(lines.join('\n'));
}
