// The recorded state of one named run ($CACHE/run/<name>/state.json): ports, and for every component the
// argv it was started with and its PID + start time. `down`, `restart` and the sweeps act only on what is here.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDir, runsDir } from './config';
import { isAlive, procInfo, type ProcRef } from './proc';

/** The control-plane components, in start order. */
export const componentNames = ['etcd', 'apiserver', 'controller-manager', 'scheduler', 'kwok'] as const;
export type ComponentName = (typeof componentNames)[number];

export function isComponentName(s: string): s is ComponentName {
  return (componentNames as readonly string[]).includes(s);
}

export interface ComponentState {
  readonly argv: readonly string[];
  readonly logFile: string;
  /** An http(s) URL that answers 200 when the component is healthy (none for kwok). */
  readonly healthUrl?: string;
  readonly proc?: ProcRef;
}

export interface RunState {
  readonly name: string;
  readonly dir: string;
  readonly kubeconfig: string;
  readonly server: string;
  readonly ports: Readonly<Record<string, number>>;
  readonly components: Partial<Record<ComponentName, ComponentState>>;
  /** The process that owns this run (the jest run for `e2e-*`), when one was given. */
  readonly owner?: ProcRef;
  readonly createdAt: string;
}

export function statePath(name: string): string {
  return join(runDir(name), 'state.json');
}

export function readState(name: string): RunState | undefined {
  const p = statePath(name);
  if (!existsSync(p)) return undefined;
  return JSON.parse(readFileSync(p, 'utf8')) as RunState;
}

/** Writes state.json atomically (temp file + rename). */
export function writeState(s: RunState): void {
  mkdirSync(s.dir, { recursive: true });
  const tmp = `${statePath(s.name)}.tmp`;
  writeFileSync(tmp, JSON.stringify(s, null, 2) + '\n');
  renameSync(tmp, statePath(s.name));
}

export function withComponent(s: RunState, name: ComponentName, c: ComponentState): RunState {
  const next = { ...s, components: { ...s.components, [name]: c } };
  writeState(next);
  return next;
}

/** True when every component of the run is recorded and alive. */
export function allAlive(s: RunState): boolean {
  return componentNames.every((n) => {
    const p = s.components[n]?.proc;
    return p !== undefined && isAlive(p);
  });
}

/**
 * A per-name lock (a directory created atomically, holding the locker's PID + start time). A lock whose
 * holder is gone is taken over. Waits up to `timeoutMs`.
 */
export async function withRunLock<T>(name: string, fn: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const dir = `${runDir(name)}.lock`;
  const me = procInfo(process.pid);
  const deadline = Date.now() + timeoutMs;
  mkdirSync(runsDir(), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'owner'), `${process.pid} ${me?.start ?? ''}\n`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockHolderGone(dir)) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`rig: run "${name}" is locked by another rig command (${dir})`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function lockHolderGone(dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, 'owner'), 'utf8');
  } catch {
    // no owner file: being written right now, or its writer died in between (then the lock is old)
    try {
      return Date.now() - statSync(dir).mtimeMs > 10_000;
    } catch {
      return true; // the lock vanished
    }
  }
  const [pid, start] = text.trim().split(' ');
  return !isAlive({ pid: Number(pid), start: start === '' ? undefined : start });
}
