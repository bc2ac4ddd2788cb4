// A RestClient that passes every call through to a real one and records it, so a test can count exactly what a
// component sent to the apiserver (e.g. zero writes on an idle reconcile).
import type {
  RestClient,
  RestObserver,
  RestRequest,
  WatchEvent,
  WatchHandle,
  WatchRequest,
} from '../rest/rest';

export class CountingRest implements RestClient {
  readonly requests: RestRequest[] = [];
  constructor(private readonly inner: RestClient) {}

  /** Every request that was not a GET. */
  writes(): RestRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  request<T = unknown>(req: RestRequest): Promise<T> {
    this.requests.push(req);
    return this.inner.request<T>(req);
  }

  observe(observer: RestObserver): void {
    this.inner.observe?.(observer);
  }

  watch(
    req: WatchRequest,
    onEvent: (e: WatchEvent) => void,
    onDone: (err: unknown) => void,
  ): Promise<WatchHandle> {
    return this.inner.watch(req, onEvent, onDone);
  }
}
