// `rig down` and `rig status`: stop exactly the recorded processes (tracked helpers first, then the control
// plane from kwok back to etcd), delete the recorded network namespaces, free the run directory.
import { existsSync, readdirSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, runDir, runsDir } from './config';
import { isAlive, stopProcess } from './proc';
import { componentNames, readState, withRunLock, type ComponentName } from './state';
import { sweepTracked, trackedNetns, trackedPids } from './tracked';

export interface DownResult {
  readonly name: string;
  readonly stoppedComponents: number;
  readonly stoppedHelpers: number;
  readonly deletedNetns: number;
}

/** Stops and frees run NAME; the caller holds its lock. Set OOOI_RIG_KEEP_LOGS=1 to keep the directory. */
export async function downUnlocked(name: string): Promise<DownResult> {
  const tracked = await sweepTracked(name);
  const s = readState(name);
  let stopped = 0;
  if (s !== undefined) {
    for (const n of [...componentNames].reverse()) {
      const p = s.components[n]?.proc;
      if (p === undefined) continue;
      if (isAlive(p)) stopped++;
      await stopProcess(p);
    }
  }
  const dir = runDir(name);
  if (existsSync(dir)) {
    if (process.env.OOOI_RIG_KEEP_LOGS === '1') {
      const kept = join(cacheDir(), 'kept');
      mkdirSync(kept, { recursive: true });
      renameSync(dir, join(kept, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    } else {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { name, stoppedComponents: stopped, stoppedHelpers: tracked.pids, deletedNetns: tracked.netns };
}

/** Stops run NAME (control plane, tracked helpers, namespaces) and removes its directory. */
export function rigDown(name: string): Promise<DownResult> {
  return withRunLock(name, () => downUnlocked(name));
}

/** The names of every run with a directory under $CACHE/run. */
export function listRuns(): string[] {
  const d = runsDir();
  if (!existsSync(d)) return [];
  return readdirSync(d, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.endsWith('.lock'))
    .map((e) => e.name)
    .sort();
}

/** `rig down --all`. */
export async function rigDownAll(): Promise<DownResult[]> {
  const out: DownResult[] = [];
  for (const n of listRuns()) out.push(await rigDown(n));
  return out;
}

export interface ComponentStatus {
  readonly name: ComponentName;
  readonly pid: number | undefined;
  readonly alive: boolean;
  readonly logFile: string | undefined;
}

export interface RigStatus {
  readonly name: string;
  readonly exists: boolean;
  readonly kubeconfig?: string;
  readonly server?: string;
  readonly ports?: Readonly<Record<string, number>>;
  readonly components: ComponentStatus[];
  readonly helpers: { pid: number; label: string; alive: boolean }[];
  readonly netns: string[];
}

/** What run NAME has recorded, and which of its processes are alive. */
export function rigStatus(name: string): RigStatus {
  const s = readState(name);
  const components = componentNames.map((n) => {
    const c = s?.components[n];
    return {
      name: n,
      pid: c?.proc?.pid,
      alive: c?.proc !== undefined && isAlive(c.proc),
      logFile: c?.logFile,
    };
  });
  const helpers = trackedPids(name).map((p) => ({ pid: p.ref.pid, label: p.label, alive: isAlive(p.ref) }));
  const base = { name, exists: s !== undefined, components, helpers, netns: trackedNetns(name) };
  return s === undefined ? base : { ...base, kubeconfig: s.kubeconfig, server: s.server, ports: s.ports };
}
