// For tests only: the controller's caches as the Manager makes them (one ListWatchCache per kind and
// scope), over @oooi/kube's in-memory FakeRest, and a wait for a cache to hold what was written.
import { ListWatchCache, systemClock } from '@oooi/kube';
import type { CacheProvider, CacheScope, KindDescriptor, KubeObject } from '@oooi/kube';
import type { FakeRest } from '@oooi/kube/testing';

export class FakeCaches implements CacheProvider {
  /** Each a ListWatchCache of its kind's objects (the Manager's answer is typed by the caller, as here). */
  private readonly made = new Map<string, unknown>();
  constructor(private readonly rest: FakeRest) {}

  cacheFor<T extends KubeObject>(kind: KindDescriptor, scope: CacheScope = {}): ListWatchCache<T> {
    const key = `${kind.plural}/${scope.namespace ?? ''}`;
    const made = this.made.get(key);
    if (made) return made as ListWatchCache<T>;
    const cache = new ListWatchCache<T>({
      rest: this.rest,
      kind,
      ...scope,
      clock: systemClock(),
      random: () => 0,
    });
    this.made.set(key, cache);
    return cache;
  }

  private all(): ListWatchCache<KubeObject>[] {
    return [...this.made.values()].map((c) => c as ListWatchCache<KubeObject>);
  }

  start(signal: AbortSignal): Promise<void> {
    return Promise.all(this.all().map((c) => c.start(signal))).then(() => undefined);
  }

  stop(): Promise<void> {
    return Promise.all(this.all().map((c) => c.stop())).then(() => undefined);
  }
}

/** Polls until COND holds (a watch event has reached a cache), for at most 3 s. */
export async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
