import { getMaxListeners, setMaxListeners } from 'node:events';
import { reserveListeners } from './listener-budget';

/** The limit as Node keeps it (getMaxListeners cannot read a 0 back on Node 20). */
function limitOf(signal: AbortSignal): unknown {
  const key = Object.getOwnPropertySymbols(signal).find(
    (s) => s.description === 'events.maxEventTargetListeners',
  );
  return key === undefined ? undefined : (signal as unknown as Record<symbol, unknown>)[key];
}

test('raises the default limit by what each caller holds', () => {
  const stop = new AbortController();
  reserveListeners(stop.signal, 3);
  reserveListeners(stop.signal, 2);
  expect(getMaxListeners(stop.signal)).toBe(15);
});

test('an unlimited signal (limit 0, as the commands set it) stays unlimited, without an error', () => {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  expect(limitOf(stop.signal)).toBe(0);
  expect(() => reserveListeners(stop.signal, 3)).not.toThrow();
  expect(limitOf(stop.signal)).toBe(0);
});
