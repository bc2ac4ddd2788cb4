// Processes the rig starts: spawned detached with their output in a log file, identified by PID *and* kernel
// start time (so a recycled PID is never mistaken for ours), stopped by that identity only.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** A process the rig started. `start` is field 22 of /proc/PID/stat (clock ticks since boot). */
export interface ProcRef {
  readonly pid: number;
  readonly start: string;
}

/** Reads the kernel start time and state of a PID, or undefined when there is no such process. */
export function procInfo(pid: number): { start: string; state: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // no such process: that is the answer, not an error
  }
  // comm (field 2) may hold spaces and parentheses: split after the last ')'
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = rest[0];
  const start = rest[19];
  if (state === undefined || start === undefined) return undefined;
  return { start, state };
}

/** True when PID is running (not a zombie) and, if a start time is given, is still the same process. */
export function isAlive(ref: { pid: number; start?: string | undefined }): boolean {
  const info = procInfo(ref.pid);
  if (info === undefined || info.state === 'Z' || info.state === 'X') return false;
  return ref.start === undefined || ref.start === info.start;
}

/** The identity of a running PID (to record right after spawning it). */
export function procRef(pid: number): ProcRef {
  const info = procInfo(pid);
  if (info === undefined) throw new Error(`rig: process ${pid} exited at once (see its log)`);
  return { pid, start: info.start };
}

export interface DaemonSpec {
  readonly argv: readonly string[];
  readonly logFile: string;
  readonly cwd?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** Starts a long-running process detached from us (own session), stdout+stderr appended to its log file. */
export function spawnDaemon(spec: DaemonSpec): ProcRef {
  const [cmd, ...args] = spec.argv;
  if (cmd === undefined) throw new Error('rig: empty argv');
  const fd = openSync(spec.logFile, 'a');
  try {
    const child = spawn(cmd, args, {
      detached: true,
      stdio: ['ignore', fd, fd],
      cwd: spec.cwd,
      env: spec.env ?? process.env,
    });
    child.on('error', () => undefined); // a failed exec shows up as "exited at once" below, with its log
    child.unref();
    if (child.pid === undefined) throw new Error(`rig: could not start ${cmd}`);
    return procRef(child.pid);
  } finally {
    closeSync(fd);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `ok` every `everyMs` until it returns true or `timeoutMs` passes; throws `what` on timeout. */
export async function waitFor(
  what: string,
  ok: () => boolean | Promise<boolean>,
  opts: { timeoutMs: number; everyMs?: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    opts.signal?.throwIfAborted();
    if (await ok()) return;
    if (Date.now() > deadline)
      throw new Error(`rig: timed out after ${opts.timeoutMs} ms waiting for ${what}`);
    await sleep(opts.everyMs ?? 100);
  }
}

/**
 * Stops one process we started: SIGTERM, wait up to `graceMs`, then SIGKILL and wait again.
 * Does nothing when the PID is gone or now belongs to another process (start time differs).
 */
export async function stopProcess(ref: ProcRef, graceMs = 10_000): Promise<void> {
  if (!isAlive(ref)) return;
  try {
    process.kill(ref.pid, 'SIGTERM');
  } catch {
    return; // it exited between the check and the signal
  }
  const gone = (): boolean => !isAlive(ref);
  try {
    await waitFor(`pid ${ref.pid} to exit`, gone, { timeoutMs: graceMs, everyMs: 50 });
    return;
  } catch {
    // still there after the grace period: kill it below
  }
  if (isAlive(ref)) process.kill(ref.pid, 'SIGKILL');
  await waitFor(`pid ${ref.pid} to exit after SIGKILL`, gone, { timeoutMs: 5_000, everyMs: 50 });
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly timeoutMs?: number;
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Also copy the child's stdout and stderr to this stream as they arrive (used by `rig install`). */
  readonly echo?: NodeJS.WritableStream;
}

/** Runs a command to completion with a timeout (default 60 s); never rejects on a non-zero exit. */
export function run(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return Promise.reject(new Error('rig: empty argv'));
  return new Promise((resolveRun, reject) => {
    const stdin = opts.input !== undefined ? 'pipe' : 'ignore';
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: [stdin, 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (b: Buffer) => {
      stdout += b.toString();
      opts.echo?.write(b);
    });
    child.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
      opts.echo?.write(b);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`rig: cannot run ${cmd}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
    if (child.stdin !== null) {
      child.stdin.on('error', () => undefined); // the child may exit without reading its input
      child.stdin.end(opts.input);
    }
  });
}

/** Like run(), but throws with the command's stderr when it does not exit 0. */
export async function runOk(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const res = await run(argv, opts);
  if (res.code !== 0) {
    const why = res.signal !== null ? `signal ${res.signal}` : `exit ${String(res.code)}`;
    throw new Error(`rig: \`${argv.join(' ')}\` failed (${why}): ${res.stderr.trim() || res.stdout.trim()}`);
  }
  return res;
}
