// --track-file: whether the Envoy next to this sidecar serves, as keepalived's `vrrp_track_file` reads it (proxy HA,
// docs/high-availability.md "Proxy"): `0` when it serves, `1` when it does not. keepalived, with weight 0, puts its
// VRRP instance in FAULT on a non-zero value and so gives the floating serverIP to the other replica. The check
// runs every interval; the file is replaced atomically (written beside it, then renamed; keepalived sees the rename
// through inotify) and only when the value changes. On stop it says `1`: a sidecar that shuts down (the pod is
// terminating) hands the address over even before keepalived's own SIGTERM does.
import { renameSync, writeFileSync } from 'node:fs';
import type { Logger } from 'pino';

export const TRACK_SERVING = '0';
export const TRACK_NOT_SERVING = '1';

export interface TrackFileOptions {
  readonly path: string;
  /** Resolves true while Envoy serves (its admin /ready answers LIVE and it holds an ADS stream). */
  readonly serving: () => Promise<boolean> | boolean;
  readonly log: Logger;
  /** @default 500 */
  readonly intervalMs?: number;
}

/** Writes VALUE to PATH atomically. */
export function writeTrackFile(path: string, value: string): void {
  writeFileSync(`${path}.tmp`, `${value}\n`);
  renameSync(`${path}.tmp`, path);
}

/** What the running track file says. */
export interface TrackFile {
  /** True while the file says `0`: keepalived has been told Envoy serves (part of /readyz, see run-xds.ts). */
  serving(): boolean;
}

/** Keeps PATH in step with SERVING until SIGNAL aborts, then writes `1`. Writes `1` first. */
export function runTrackFile(o: TrackFileOptions, signal: AbortSignal): TrackFile {
  let last: string | undefined;
  const set = (value: string): void => {
    if (value === last) return;
    try {
      writeTrackFile(o.path, value);
      last = value;
      o.log.info({ trackFile: o.path, serving: value === TRACK_SERVING }, 'Track file changed');
    } catch (err) {
      o.log.error({ err, trackFile: o.path }, 'Cannot write the track file');
    }
  };
  set(TRACK_NOT_SERVING);
  let busy = false;
  const timer = setInterval(() => {
    if (busy || signal.aborted) return;
    busy = true;
    void Promise.resolve(o.serving())
      .catch(() => false)
      .then((ok) => {
        busy = false;
        if (!signal.aborted) set(ok ? TRACK_SERVING : TRACK_NOT_SERVING);
      });
  }, o.intervalMs ?? 500);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      last = undefined;
      set(TRACK_NOT_SERVING);
    },
    { once: true },
  );
  return { serving: () => last === TRACK_SERVING };
}
