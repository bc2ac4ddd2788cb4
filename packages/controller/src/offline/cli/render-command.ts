// `oooi render -f FILE… -o DIR [--now RFC3339]`: the controller's decisions, offline. Exit 0 when it rendered
// (conflicts are in status.yaml), 1 on input it cannot read (each problem names its file and field), 2 on a
// usage or output problem (a bad --now, an output directory that is empty-named, not empty or not writable).
// Nothing is written unless everything is: the files go to a temporary directory renamed into place.
import { fileWordProblem } from '../../workload/generated-text';
import type { DefaultImages } from '../../workload/images';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { readRenderInput } from '../render/input';
import { renderDhcpOutputs } from '../render/render-dhcp';
import { renderDnsOutputs } from '../render/render-dns';
import { renderFiles, renderInfras } from '../render/render-infras';
import { renderProxyOutputs } from '../render/render-proxy';
import { checkOutputDir, writeOutputDir } from './output-dir';
import { readFiles } from './read-files';

export interface RenderArgs {
  readonly files: readonly string[];
  readonly out: string;
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly images: DefaultImages;
  /** The data-plane pods' NetworkPolicies (default: on, with the default metrics namespaces). */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (default: the operator's). */
  readonly nodeLossTolerationSeconds?: number;
}

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const ExitCode = { ok: 0, problems: 1, usage: 2 } as const;

const NOW = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * Parses --now: RFC 3339 with a time zone (Z or ±hh:mm). Impossible dates and times (February 31st, hour 24,
 * second 60, offset +24:00) are refused, not rolled over as `Date.parse` would.
 */
export function parseNow(text: string): number | undefined {
  const m = NOW.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetOk = m[8]!.toUpperCase() === 'Z' || (Number(m[10]) <= 23 && Number(m[11]) <= 59);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const ok = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59;
  if (!ok || second > 59 || !offsetOk) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

export function runRender(args: RenderArgs, io: Output): number {
  const dirProblem = checkOutputDir(args.out);
  if (dirProblem) {
    io.err(dirProblem);
    return ExitCode.usage;
  }
  const read = readFiles(args.files);
  const input = readRenderInput(read.docs);
  const errors = [...read.errors, ...(input.ok ? [] : input.errors)];
  if (!input.ok || errors.length > 0) {
    for (const e of errors) io.err(e);
    return ExitCode.problems;
  }
  const result = renderInfras(input.input, { now: args.now, images: args.images });
  const main = renderFiles(result);
  const policy = args.networkPolicy ?? DEFAULT_NETWORK_POLICY;
  const seconds = args.nodeLossTolerationSeconds;
  const dns = renderDnsOutputs(result.dnsServers, args.images.dns, policy, seconds);
  const dhcp = renderDhcpOutputs(result.dhcpServers, args.images.dhcpServer, policy, seconds);
  const proxy = renderProxyOutputs(result.proxyServers, args.images, policy, seconds);
  const files = [...main.files, ...dns.files, ...dhcp.files, ...proxy.files];
  const clash = [...main.errors, ...duplicateNames(files.map((f) => f.name))];
  const refused = [...dns.errors, ...dhcp.errors, ...proxy.errors];
  if (clash.length > 0 || refused.length > 0) {
    for (const e of [...clash, ...refused]) io.err(e);
    return ExitCode.problems;
  }
  const names = files.flatMap((f) => fileNameProblems(f.name));
  if (names.length > 0) {
    for (const e of names) io.err(e);
    return ExitCode.problems;
  }
  const written = writeOutputDir(args.out, files);
  if (written !== undefined) {
    io.err(written);
    return ExitCode.usage;
  }
  io.out(`rendered ${files.length} files into ${args.out}`);
  return ExitCode.ok;
}

/** A file name built from object names passes the one gate, component by component. */
function fileNameProblems(name: string): string[] {
  return name.split('/').flatMap((part) => {
    const problem = fileWordProblem(part);
    return problem ? [`cannot write ${JSON.stringify(name)}: ${problem}`] : [];
  });
}

function duplicateNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of names) {
    if (seen.has(n)) out.push(`two objects would be written to the same file ${n}`);
    seen.add(n);
  }
  return out;
}
