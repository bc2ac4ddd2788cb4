// Starting control-plane components: spawn (recording each PID), then wait until each is healthy. A run being
// brought up gets one more chance for a component that died because one of its ports was taken between
// choosing and binding it (ports.ts): it is started again on fresh ports.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { componentPorts, componentSpec, type ComponentInputs, type PortName, type Ports } from './components';
import { probe } from './health';
import { adminKubeconfig, pkiPaths } from './pki';
import { freePorts, takenPort } from './ports';
import { isAlive, spawnDaemon, waitFor } from './proc';
import { componentNames, withComponent, writeState, type ComponentName, type RunState } from './state';

const READY_TIMEOUT_MS = 60_000;

/** Chooses one free port per name, none of them in `avoid` (default: `freePorts`). */
export type PickPorts = (names: readonly PortName[], avoid: readonly number[]) => Promise<number[]>;

export const defaultPickPorts: PickPorts = (names, avoid) => freePorts(names.length, { avoid });

/** Calls PICK and checks that it kept its contract (one distinct port per name, none avoided). */
export async function pickChecked(
  pick: PickPorts,
  names: readonly PortName[],
  avoid: readonly number[],
): Promise<number[]> {
  const got = await pick(names, avoid);
  const ok =
    got.length === names.length &&
    new Set(got).size === got.length &&
    got.every((p) => Number.isInteger(p) && p > 0 && p < 65_536 && !avoid.includes(p));
  if (!ok) throw new Error(`rig: port picker returned [${got.join(', ')}] for [${names.join(', ')}]`);
  return got;
}

export function logTail(file: string, lines = 15): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Starts one recorded component (records its PID; does not wait). */
function spawnComponent(s: RunState, name: ComponentName): RunState {
  const c = s.components[name];
  if (c === undefined) throw new Error(`rig: ${s.name} has no ${name} recorded`);
  const proc = spawnDaemon({ argv: c.argv, logFile: c.logFile, cwd: s.dir });
  return withComponent(s, name, { ...c, proc });
}

/** Waits until a started component is healthy (or, for kwok, merely alive); fails fast when it exits. */
async function waitHealthy(s: RunState, name: ComponentName): Promise<void> {
  const c = s.components[name];
  if (c?.proc === undefined) throw new Error(`rig: ${s.name} has no ${name} running`);
  const { proc } = c;
  const pki = pkiPaths(join(s.dir, 'pki'));
  const healthy = async (): Promise<boolean> => {
    if (!isAlive(proc)) throw new Error(`rig: ${name} exited; its log ends:\n${logTail(c.logFile)}`);
    return c.healthUrl === undefined || (await probe(c.healthUrl, pki, s.server));
  };
  try {
    await waitFor(`${name} healthy`, healthy, { timeoutMs: READY_TIMEOUT_MS, everyMs: 50 });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(msg.includes('log ends') ? msg : `${msg}; its log ends:\n${logTail(c.logFile)}`, {
      cause: err,
    });
  }
}

/** Starts components in order (recording each PID), then waits until all are healthy. */
export async function startComponents(s0: RunState, names: readonly ComponentName[]): Promise<RunState> {
  let s = s0;
  for (const n of names) s = spawnComponent(s, n);
  const started = s;
  await Promise.all(names.map((n) => waitHealthy(started, n)));
  return s;
}

/** A run being brought up: what its command lines are made from, and how to choose ports again. */
export interface Launch {
  readonly inputs: ComponentInputs;
  readonly pickPorts: PickPorts;
  readonly log: (line: string) => void;
}

/** The port a dead component's log says was taken from it, or undefined (alive, or died of something else). */
function lostPort(s: RunState, name: ComponentName, ports: Ports): number | undefined {
  const c = s.components[name];
  if (c?.proc === undefined || isAlive(c.proc) || !existsSync(c.logFile)) return undefined;
  return takenPort(
    readFileSync(c.logFile, 'utf8'),
    componentPorts[name].map((k) => ports[k]),
  );
}

/**
 * Gives the components NAMES fresh ports. Every component not running (those and the ones not started yet)
 * gets its command line again from the new ports; running ones keep theirs, which is sound because a component
 * only connects to components started before it. A moved apiserver means a new `server` and kubeconfig.
 */
async function movePorts(
  s: RunState,
  launch: Launch,
  names: readonly ComponentName[],
): Promise<{ state: RunState; launch: Launch }> {
  const { inputs } = launch;
  const keys = names.flatMap((n) => componentPorts[n]);
  const fresh = await pickChecked(launch.pickPorts, keys, Object.values(inputs.ports));
  const ports: Record<PortName, number> = { ...inputs.ports };
  keys.forEach((k, i) => (ports[k] = fresh[i] ?? 0));
  const next: ComponentInputs = { ...inputs, ports };
  const server = `https://127.0.0.1:${ports.apiserver}`;
  if (server !== s.server) {
    const text = await adminKubeconfig(inputs.pki, server, `oooi-rig-${s.name}`);
    await writeFile(inputs.kubeconfig, text, { mode: 0o600 });
  }
  const components = { ...s.components };
  for (const n of componentNames) {
    const proc = s.components[n]?.proc;
    if (proc === undefined || !isAlive(proc)) components[n] = componentSpec(n, next);
  }
  const state: RunState = { ...s, server, ports: { ...ports }, components };
  writeState(state);
  return { state, launch: { ...launch, inputs: next } };
}

/**
 * Like startComponents, for a run being brought up: a component that died because one of its ports was
 * taken is started once more, on fresh ports. Any other failure (or a second one) is thrown.
 */
export async function startFresh(
  s0: RunState,
  names: readonly ComponentName[],
  launch: Launch,
): Promise<{ state: RunState; launch: Launch }> {
  let s = s0;
  for (const n of names) s = spawnComponent(s, n);
  const started = s;
  const results = await Promise.allSettled(names.map((n) => waitHealthy(started, n)));
  const failed = names.flatMap((name, i) => {
    const r = results[i];
    return r?.status === 'rejected'
      ? [{ name, err: r.reason as unknown, port: lostPort(s, name, launch.inputs.ports) }]
      : [];
  });
  if (failed.length === 0) return { state: s, launch };
  const other = failed.find((f) => f.port === undefined);
  if (other !== undefined) throw other.err;
  for (const f of failed) {
    launch.log(`${f.name} lost port ${f.port} to another process; starting it again on a fresh port`);
    const logFile = s.components[f.name]?.logFile;
    if (logFile !== undefined)
      appendFileSync(logFile, `--- rig: port ${f.port} was taken; restarting on a fresh port ---\n`);
  }
  const retry = failed.map((f) => f.name);
  const moved = await movePorts(s, launch, retry);
  return { state: await startComponents(moved.state, retry), launch: moved.launch };
}
