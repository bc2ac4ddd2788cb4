// The one write path of a process (controller-runtime's WithFieldOwner): every write carries the same field
// manager, desired state goes out by server-side apply (force only when the caller says so), status by apply to
// /status under the same manager, writes that would change nothing are skipped (rule in apply-memo.ts), and every
// write is counted by verb and kind.
import { pino, type Logger } from 'pino';
import { apiVersionOf, kindLabel, resourcePath, type KindDescriptor } from '../kinds';
import { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { isApiError, type RestClient, type RestRequest } from '../rest/rest';
import { ApplyMemo } from './apply-memo';
import { ApplyConflictError } from './conflict';

export const ApplyPatchContentType = 'application/apply-patch+yaml';
export const MergePatchContentType = 'application/merge-patch+json';

export type WriteVerb = 'apply' | 'apply_status' | 'create' | 'update' | 'patch' | 'delete';

export interface KubeClientOptions {
  rest: RestClient;
  /** The field manager of this process, e.g. `oooi-controller`. */
  fieldManager: string;
  metrics?: KubeMetrics;
  log?: Logger;
}

export interface ApplyOptions {
  /** Take fields from other managers. Only where the design says this process owns them outright. */
  force?: boolean;
  /** The live object from the cache; without it the write cannot be skipped. */
  current?: KubeObject;
  signal?: AbortSignal;
}

/** What an apply did: sent (with the server's answer) or skipped (nothing would change). */
export type ApplyOutcome<T> = { sent: true; object: T } | { sent: false; object: KubeObject };

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  signal?: AbortSignal;
}

export interface ObjectRef {
  namespace?: string;
  name: string;
}

export class KubeClient {
  readonly fieldManager: string;
  private readonly rest: RestClient;
  private readonly metrics: KubeMetrics;
  private readonly log: Logger;
  private readonly memo = new ApplyMemo();

  constructor(options: KubeClientOptions) {
    if (!options.fieldManager) throw new Error('KubeClient needs a field manager');
    this.rest = options.rest;
    this.fieldManager = options.fieldManager;
    this.metrics = options.metrics ?? new KubeMetrics({ component: 'kube' });
    this.log = (options.log ?? pino({ level: 'silent' })).child({ fieldManager: options.fieldManager });
  }

  /** Server-side applies `body` (only the fields we own). Skipped when it would change nothing. */
  apply<T extends KubeObject>(
    kind: KindDescriptor,
    body: KubeObject,
    options: ApplyOptions = {},
  ): Promise<ApplyOutcome<T>> {
    return this.applyPart<T>(kind, body, '', options);
  }

  /**
   * Server-side applies `status` to the `/status` subresource under the same manager. `body` is the object's
   * identity plus the status we own: `{ apiVersion, kind, metadata: { name, namespace }, status }`.
   */
  applyStatus<T extends KubeObject>(
    kind: KindDescriptor,
    body: KubeObject,
    options: ApplyOptions = {},
  ): Promise<ApplyOutcome<T>> {
    return this.applyPart<T>(kind, body, 'status', options);
  }

  /**
   * Read-your-writes: `live` (an object from the cache), or this client's newest write of it when the cache has
   * not seen that write yet (rule in apply-memo.ts). Read the object a pass derives its status from through this.
   */
  freshest<T extends KubeObject>(kind: KindDescriptor, live: T): T;
  freshest<T extends KubeObject>(kind: KindDescriptor, live: T | undefined): T | undefined;
  freshest<T extends KubeObject>(kind: KindDescriptor, live: T | undefined): T | undefined {
    const name = live?.metadata?.name;
    if (!live || !name) return live;
    const namespace = kind.namespaced === false ? undefined : live.metadata?.namespace;
    return this.memo.freshest(objectMemoKey(kind, { namespace, name }), live);
  }

  /** GET one object; undefined when it does not exist. Reads are not counted. */
  async get<T extends KubeObject>(
    kind: KindDescriptor,
    ref: ObjectRef,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    try {
      return await this.rest.request<T>({ method: 'GET', path: resourcePath(kind, ref), signal });
    } catch (err) {
      if (isApiError(err, 404)) return undefined;
      throw err;
    }
  }

  /** LIST objects (all pages) of a namespace, or of all namespaces. Reads are not counted. */
  async list<T extends KubeObject>(kind: KindDescriptor, options: ListOptions = {}): Promise<T[]> {
    const items: T[] = [];
    let cont: string | undefined;
    do {
      const page = await this.rest.request<{ items?: T[]; metadata?: { continue?: string } }>({
        method: 'GET',
        path: resourcePath(kind, { namespace: options.namespace }),
        query: {
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          limit: 500,
          continue: cont,
        },
        signal: options.signal,
      });
      items.push(...(page.items ?? []));
      cont = page.metadata?.continue || undefined;
    } while (cont);
    return items;
  }

  /** POST a new object. */
  create<T extends KubeObject>(kind: KindDescriptor, body: KubeObject, signal?: AbortSignal): Promise<T> {
    const path = resourcePath(kind, { namespace: body.metadata?.namespace });
    return this.write<T>('create', kind, { method: 'POST', path, body, signal });
  }

  /** PUT an object; carries its resourceVersion, so a stale one fails with 409 (optimistic concurrency). */
  update<T extends KubeObject>(kind: KindDescriptor, body: KubeObject, signal?: AbortSignal): Promise<T> {
    const path = resourcePath(kind, { namespace: body.metadata?.namespace, name: body.metadata?.name });
    return this.write<T>('update', kind, { method: 'PUT', path, body, signal });
  }

  /** JSON merge patch (for the few writes that are not desired state, e.g. an Event series). */
  mergePatch<T extends KubeObject>(
    kind: KindDescriptor,
    ref: ObjectRef,
    patch: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const path = resourcePath(kind, ref);
    return this.write<T>('patch', kind, {
      method: 'PATCH',
      path,
      body: patch,
      contentType: MergePatchContentType,
      signal,
    });
  }

  /** DELETE an object; false when it was already gone. */
  async delete(kind: KindDescriptor, ref: ObjectRef, signal?: AbortSignal): Promise<boolean> {
    this.memo.forget(objectMemoKey(kind, ref));
    try {
      await this.write('delete', kind, { method: 'DELETE', path: resourcePath(kind, ref), signal });
      return true;
    } catch (err) {
      if (isApiError(err, 404)) return false;
      throw err;
    }
  }

  private async applyPart<T extends KubeObject>(
    kind: KindDescriptor,
    body: KubeObject,
    subresource: '' | 'status',
    options: ApplyOptions,
  ): Promise<ApplyOutcome<T>> {
    const ref = checkApplyBody(kind, body);
    const verb: WriteVerb = subresource ? 'apply_status' : 'apply';
    const key = objectMemoKey(kind, ref);
    let current = options.current;
    let verdict = this.memo.verdict(key, subresource, body, current);
    if (verdict.why === 'no-live-object') {
      // This very body was applied by us last, but the cache does not hold the object: it may only lag our write
      // (a large object's watch event can arrive well after the answer, and a pass in between would send the same
      // apply again: a 1,400-backend ProxyServer costs the apiserver seconds). One GET tells — cheaper for it than an
      // apply it would find unchanged; gone (404) or changed, the apply is sent.
      current = await this.get(kind, ref, options.signal);
      verdict = this.memo.verdict(key, subresource, body, current);
    }
    if (verdict.skip && current) {
      this.metrics.apiWritesSkipped.inc({ verb, kind: kindLabel(kind) });
      this.log.debug(
        { verb, kind: kindLabel(kind), namespace: ref.namespace, name: ref.name, why: verdict.why },
        'Write skipped',
      );
      return { sent: false, object: current };
    }
    const path = resourcePath(kind, { ...ref, subresource: subresource || undefined });
    const query = { fieldManager: this.fieldManager, force: options.force ? true : undefined };
    try {
      const object = await this.write<T>(verb, kind, {
        method: 'PATCH',
        path,
        query,
        body,
        contentType: ApplyPatchContentType,
        signal: options.signal,
      });
      this.memo.remember(key, subresource, { body, sentOn: current, result: object });
      this.log.debug(
        { verb, kind: kindLabel(kind), namespace: ref.namespace, name: ref.name, why: verdict.why },
        'Write sent',
      );
      return { sent: true, object };
    } catch (err) {
      this.memo.forget(key, subresource);
      if (isApiError(err, 409))
        throw new ApplyConflictError(
          {
            kind: kindLabel(kind),
            namespace: ref.namespace ?? '',
            name: ref.name,
            subresource: subresource || undefined,
          },
          err,
        );
      throw err;
    }
  }

  private async write<T>(verb: WriteVerb, kind: KindDescriptor, req: RestRequest): Promise<T> {
    const labels = { verb, kind: kindLabel(kind) };
    this.metrics.apiWrites.inc(labels);
    const query = verb === 'delete' ? req.query : { fieldManager: this.fieldManager, ...req.query };
    try {
      return await this.rest.request<T>({ ...req, query });
    } catch (err) {
      this.metrics.apiWriteErrors.inc({ ...labels, code: isApiError(err) ? String(err.code) : 'none' });
      throw err;
    }
  }
}

function objectMemoKey(kind: KindDescriptor, ref: ObjectRef): string {
  return `${apiVersionOf(kind)}/${kind.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/** Apply bodies must name themselves fully; a mismatch is a programmer error. */
function checkApplyBody(kind: KindDescriptor, body: KubeObject): ObjectRef {
  const name = body.metadata?.name;
  const namespace = body.metadata?.namespace;
  const problems: string[] = [];
  if (body.apiVersion !== apiVersionOf(kind))
    problems.push(`apiVersion ${JSON.stringify(body.apiVersion)} is not ${apiVersionOf(kind)}`);
  if (body.kind !== kind.kind) problems.push(`kind ${JSON.stringify(body.kind)} is not ${kind.kind}`);
  if (!name) problems.push('metadata.name is empty');
  if (kind.namespaced !== false && !namespace) problems.push('metadata.namespace is empty');
  if (problems.length > 0 || !name)
    throw new Error(`apply body for ${kindLabel(kind)}: ${problems.join('; ')}`);
  return { namespace: kind.namespaced === false ? undefined : namespace, name };
}
