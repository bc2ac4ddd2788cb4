// Tells CoreDNS to load the files just written: SIGUSR1 (CoreDNS reloads its Corefile in place, the old servers
// answering until the new ones take over) to the PID CoreDNS wrote with `-pidfile` into a volume both containers
// mount. The pod shares one process namespace (shareProcessNamespace), so that PID means the same process here.
// Before signalling, /proc/<pid>/comm must name the expected program: a stale pidfile (CoreDNS restarted, the PID
// reused) never gets a signal sent to some other process.
import { readFile } from 'node:fs/promises';

export type SignalOutcome =
  { readonly sent: true; readonly pid: number } | { readonly sent: false; readonly why: string };

export interface ReloadSignalOptions {
  /** The pidfile CoreDNS writes (`-pidfile`). */
  readonly pidFile: string;
  /** What /proc/<pid>/comm must read (CoreDNS: `coredns`). */
  readonly processName: string;
  /** Default SIGUSR1. */
  readonly signal?: NodeJS.Signals;
  /** Default `/proc`. */
  readonly procDir?: string;
}

async function text(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** Sends the reload signal when the pidfile names a live process of the expected name; says why not otherwise. */
export async function sendReloadSignal(o: ReloadSignalOptions): Promise<SignalOutcome> {
  const raw = await text(o.pidFile);
  if (raw === undefined) return { sent: false, why: `no pidfile ${o.pidFile} yet` };
  const pid = Number(raw);
  if (!Number.isInteger(pid) || pid <= 1) return { sent: false, why: `pidfile ${o.pidFile}: not a PID` };
  const comm = await text(`${o.procDir ?? '/proc'}/${pid}/comm`);
  if (comm !== o.processName)
    return {
      sent: false,
      why: `PID ${pid} is ${comm === undefined ? 'gone' : `"${comm}"`}, not ${o.processName}`,
    };
  try {
    process.kill(pid, o.signal ?? 'SIGUSR1');
  } catch (err) {
    return { sent: false, why: `kill ${pid}: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { sent: true, pid };
}
