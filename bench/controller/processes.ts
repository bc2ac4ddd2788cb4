// The processes a bench run watches: the oooi-controller under test (started pinned to CPU 1, its log in a file,
// stopped by SIGTERM) and the rig's control-plane components (their pids, for the CPU each one used).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readState, type Rig } from '@oooi/rig';
import { readImage } from '../../scripts/image-app';
import { ns } from './world';

/** What one controller run needs: its bundle, a label for notes, its log level, a CPU-profile directory. */
export interface ControllerRun {
  readonly label: string;
  readonly bundle: string;
  readonly logLevel: string;
  readonly profile: string | undefined;
}

export interface Running {
  child: ChildProcess;
  /** When the process wrote its first log line. */
  firstLine: Promise<number>;
}

/**
 * The flags the controller image gives node (its Dockerfile's ENTRYPOINT, `["node", FLAGS…, "/app/….js"]`): the bench
 * runs the bundle as the image does, so its memory is what a user's pod holds (`--enable-source-maps` keeps the
 * bundle's source map in memory).
 */
export function imageNodeFlags(dockerfile = 'Dockerfile.controller'): string[] {
  const argv = readImage(dockerfile).entrypoint;
  if (argv[0] !== 'node' || argv.length < 2) throw new Error(`${dockerfile}: no ENTRYPOINT ["node", …]`);
  return argv.slice(1, -1);
}

export function startController(
  rig: Rig,
  metricsPort: number,
  o: ControllerRun,
  note: (line: string) => void,
): Running {
  const logFile = join(tmpdir(), `${rig.name}-oooi-controller.log`);
  note(`${o.label}: controller log ${logFile}`);
  const log = createWriteStream(logFile);
  const args = [
    ...['--kubeconfig', rig.kubeconfig, '--namespace', ns, '--leader-election-namespace', ns],
    ...['--health-address', '0', '--metrics-address', `127.0.0.1:${metricsPort}`, '--log-level', o.logLevel],
  ];
  const node = [...imageNodeFlags(), ...(o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [])];
  const child = spawn('taskset', ['-c', '1', process.execPath, ...node, o.bundle, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firstLine = new Promise<number>((resolve) => child.stdout?.once('data', () => resolve(Date.now())));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return { child, firstLine };
}

export async function stopController(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The rig's component processes by name (etcd, apiserver, controller-manager, scheduler, kwok). */
export function rigPids(rig: Rig): Map<string, number> {
  const state = readState(rig.name);
  const out = new Map<string, number>();
  for (const [name, c] of Object.entries(state?.components ?? {}))
    if (c?.proc?.pid !== undefined) out.set(name, c.proc.pid);
  return out;
}
