// One stop signal is shared by every part of a process (the manager's caches, controllers, servers): each part that
// keeps listeners on it for its lifetime raises the signal's listener limit by that many, so Node's leak warning
// (more than 10 listeners on one AbortSignal) speaks only of listeners nobody accounted for. A signal whose limit is
// 0 (unlimited: the commands' main.ts set it so) stays unlimited.
import { getMaxListeners, setMaxListeners } from 'node:events';

/** Raises SIGNAL's listener limit by N: the listeners the caller may hold on it at once. */
export function reserveListeners(signal: AbortSignal, n: number): void {
  let limit: number;
  try {
    limit = getMaxListeners(signal);
  } catch {
    // Node 20's getMaxListeners throws for an EventTarget whose limit was set to 0: unlimited, nothing to raise
    return;
  }
  if (limit > 0) setMaxListeners(limit + n, signal);
}
