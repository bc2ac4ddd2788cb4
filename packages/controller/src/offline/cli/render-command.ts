// `oooi render -f FILE… -o DIR [--now RFC3339]`: the controller's decisions, offline. Exit 0 when it rendered
// (conflicts are in status.yaml), 1 on input it cannot read (each problem names its file and field), 2 on a
// usage error (a bad --now, an output directory that is not empty).
import type { DefaultImages } from '../../workload/images';
import { readRenderInput } from '../render/input';
import { renderDnsOutputs } from '../render/render-dns';
import { renderFiles, renderInfras } from '../render/render-infras';
import { checkOutputDir, writeOutputDir } from './output-dir';
import { readFiles } from './read-files';

export interface RenderArgs {
  readonly files: readonly string[];
  readonly out: string;
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly images: DefaultImages;
}

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const ExitCode = { ok: 0, problems: 1, usage: 2 } as const;

/** Parses --now: RFC 3339 with a time zone (Z or ±hh:mm). */
export function parseNow(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) return undefined;
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
  const dns = renderDnsOutputs(result.dnsServers, args.images.dns);
  const files = [...main.files, ...dns.files];
  const clash = [...main.errors, ...duplicateNames(files.map((f) => f.name))];
  if (clash.length > 0 || dns.errors.length > 0) {
    for (const e of [...clash, ...dns.errors]) io.err(e);
    return ExitCode.problems;
  }
  writeOutputDir(args.out, files);
  io.out(`rendered ${files.length} files into ${args.out}`);
  return ExitCode.ok;
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
