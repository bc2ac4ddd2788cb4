// What a run created besides its control plane — network namespaces and processes — recorded *before* it is
// created, under $CACHE/run/<owner>/tracked/, so `rig down`, the jest sweep and dispose() can remove exactly
// that and nothing else (a namespace is only ever deleted when it is recorded here *and* carries our prefix).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDir } from './config';
import { stopProcess, type ProcRef } from './proc';
import { deleteNetns, netnsPrefix } from './net/netns';

function trackedDir(owner: string, kind: 'netns' | 'pids'): string {
  const d = join(runDir(owner), 'tracked', kind);
  mkdirSync(d, { recursive: true });
  return d;
}

export function trackNetns(owner: string, ns: string): void {
  if (!ns.startsWith(netnsPrefix(owner)))
    throw new Error(`rig: netns ${ns} lacks the prefix ${netnsPrefix(owner)}`);
  writeFileSync(join(trackedDir(owner, 'netns'), ns), '');
}

export function untrackNetns(owner: string, ns: string): void {
  rmSync(join(trackedDir(owner, 'netns'), ns), { force: true });
}

export function trackPid(owner: string, ref: ProcRef, label: string): void {
  writeFileSync(join(trackedDir(owner, 'pids'), `${ref.pid}-${ref.start}`), `${label}\n`);
}

export function untrackPid(owner: string, ref: ProcRef): void {
  rmSync(join(trackedDir(owner, 'pids'), `${ref.pid}-${ref.start}`), { force: true });
}

function list(owner: string, kind: 'netns' | 'pids'): string[] {
  const d = join(runDir(owner), 'tracked', kind);
  return existsSync(d) ? readdirSync(d).sort() : [];
}

/** The processes recorded for OWNER (alive or not). */
export function trackedPids(owner: string): { ref: ProcRef; label: string }[] {
  return list(owner, 'pids').map((f) => {
    const [pid, start] = f.split('-');
    const label = readFileSync(join(runDir(owner), 'tracked', 'pids', f), 'utf8').trim();
    return { ref: { pid: Number(pid), start: start ?? '' }, label };
  });
}

/** The network namespaces recorded for OWNER. */
export function trackedNetns(owner: string): string[] {
  return list(owner, 'netns');
}

/** Stops every recorded process, then deletes every recorded namespace. Returns what it removed. */
export async function sweepTracked(owner: string): Promise<{ pids: number; netns: number }> {
  const pids = trackedPids(owner);
  await Promise.all(pids.map((p) => stopProcess(p.ref, 5_000)));
  for (const p of pids) untrackPid(owner, p.ref);
  const nss = trackedNetns(owner);
  for (const ns of nss) {
    await deleteNetns(owner, ns);
    untrackNetns(owner, ns);
  }
  return { pids: pids.length, netns: nss.length };
}
