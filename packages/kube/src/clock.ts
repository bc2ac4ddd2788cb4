// Time and randomness are injected: every part takes a Clock and a Random in its options, so tests drive them with
// jest fake timers or a scripted source and nothing reads the wall clock behind their back.

/** An opaque handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = object | number;

/** The clock every long-running part uses for "now" and for timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** A source of uniform numbers in [0, 1), like Math.random. */
export type Random = () => number;

/**
 * The process clock. It looks the globals up on every call, so jest's fake timers (installed after import) drive
 * it as well.
 */
export function systemClock(): Clock {
  return {
    now: () => Date.now(),
    // Timers keep the process alive on purpose: a standby elector or a cache backing off may have nothing else
    // pending, and must not let the process exit. Stop the parts (abort their signal) to let it end.
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

/** The default random source. */
export function systemRandom(): Random {
  return () => Math.random();
}

/**
 * Sleeps for `ms` on `clock`; resolves early (without throwing) when `signal` aborts. Returns true when the full
 * time elapsed and false when it was cut short.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Formats epoch milliseconds as a Kubernetes MicroTime (RFC 3339 with six fractional digits). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Formats epoch milliseconds as a Kubernetes Time (RFC 3339, whole seconds). */
export function kubeTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
