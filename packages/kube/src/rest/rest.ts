// The seam between this package and the API server. Everything above it (caches, writers, elector, recorder) talks
// to a RestClient, so unit tests use the fake in ../testing and e2e tests the KubeConfig-backed one.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RestRequest {
  method: HttpMethod;
  /** Absolute API path, e.g. `/api/v1/namespaces/ns/configmaps`. */
  path: string;
  query?: QueryParams;
  /** Serialised as JSON (which is also valid YAML for apply patches). */
  body?: unknown;
  /** Defaults to `application/json` when there is a body. */
  contentType?: string;
  signal?: AbortSignal;
}

export interface WatchRequest {
  path: string;
  query: QueryParams;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  /** The object, or a `Status` for ERROR events. */
  object: unknown;
}

/** A running watch; `abort()` ends it (its `onDone` may then be called with an abort error, which is ignored). */
export interface WatchHandle {
  abort(): void;
}

/** Told about client-side flow control (the Manager turns it into metrics). */
export interface RestObserver {
  /** A request waited this long for the client-side rate limiter. */
  throttled(waitMs: number): void;
  /** An answer with this code is retried after `waitMs` (the server's Retry-After). */
  retried(code: number, waitMs: number): void;
}

export interface RestClient {
  /** One request; resolves with the parsed JSON body, rejects with {@link ApiError} on a non-2xx status. */
  request<T = unknown>(req: RestRequest): Promise<T>;
  /**
   * Opens a watch. `onEvent` is called for each line; `onDone` exactly once when the stream ends (null for a clean
   * end, an error otherwise), which may happen before the returned promise settles.
   */
  watch(
    req: WatchRequest,
    onEvent: (event: WatchEvent) => void,
    onDone: (err: unknown) => void,
  ): Promise<WatchHandle>;
  /** Optional: report client-side throttling and retries to `observer`. */
  observe?(observer: RestObserver): void;
}

/** The `causes` entries of a `metav1.Status`. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** A `metav1.Status` as returned with errors. */
export interface Status {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: StatusCause[] };
}

/** An error answer from the API server: the HTTP code and the `Status` body, when there was one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly reason: string;
  readonly status: Status;
  /** The answer's Retry-After, in seconds, when it had one (429s from the apiserver do). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, status: Status, retryAfterSeconds?: number) {
    super(status.message ?? `API server answered ${code}`);
    this.code = code;
    this.reason = status.reason ?? '';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** True for an {@link ApiError} with the given HTTP code. */
export function isApiError(err: unknown, code?: number): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}

/** Reads a `Status` out of a watch ERROR event object. */
export function statusFromWatchError(object: unknown): ApiError {
  const status = (object ?? {}) as Status;
  return new ApiError(typeof status.code === 'number' ? status.code : 500, status);
}
