// The few things done to a hosted cluster, each one request or two: apply an object (annotated as ours only when
// we create it), delete an object only when it carries our annotation for this attachment, count Ready nodes,
// and ask which resources a group/version serves (the MetalLB and OLM kinds may be absent).
import { isApiError, type KindDescriptor, type KubeObject } from '@oooi/kube';
import { annotationOf } from '../../infra';
import { CREATED_FOR_ANNOTATION } from '../desired/apps-ingress-objects';
import type { HostedObject, HostedRef } from '../desired/apps-ingress-objects';
import type { HostedSession } from './hosted-clients';

export const NodeKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
};

const ref = (r: HostedRef) => ({ namespace: r.namespace, name: r.name });

/** Applies O (force: the fields we set are ours); annotated as created for MARKER unless it existed without that. */
export async function applyHosted(
  s: HostedSession,
  o: HostedObject,
  marker: string,
  signal?: AbortSignal,
): Promise<void> {
  const live = await s.client.get(o.ref.kind, ref(o.ref), signal);
  const marked = !live || annotationOf(live, CREATED_FOR_ANNOTATION) === marker;
  await s.client.apply(o.ref.kind, o.body(marked), { force: true, signal });
}

/** Deletes R when it carries our annotation for MARKER; true when it was deleted. A missing kind is "absent". */
export async function deleteIfOurs(
  s: HostedSession,
  r: HostedRef,
  marker: string,
  signal?: AbortSignal,
): Promise<boolean> {
  let live: KubeObject | undefined;
  try {
    live = await s.client.get(r.kind, ref(r), signal);
  } catch (err) {
    if (isApiError(err, 404)) return false;
    throw err;
  }
  if (!live || annotationOf(live, CREATED_FOR_ANNOTATION) !== marker) return false;
  return s.client.delete(r.kind, ref(r), signal);
}

function nodeReady(node: unknown): boolean {
  const conditions = (node as { status?: { conditions?: unknown } }).status?.conditions;
  return Array.isArray(conditions)
    ? conditions.some(
        (c: { type?: unknown; status?: unknown }) => c?.type === 'Ready' && c?.status === 'True',
      )
    : false;
}

export async function readyNodeCount(s: HostedSession, signal?: AbortSignal): Promise<number> {
  const nodes = await s.client.list(NodeKind, { signal });
  return nodes.filter(nodeReady).length;
}

/** The resource names (plurals) GROUP/VERSION serves; empty when the group/version is not served at all. */
export async function servedResources(
  s: HostedSession,
  group: string,
  version: string,
  signal?: AbortSignal,
): Promise<Set<string>> {
  try {
    const list = await s.rest.request<{ resources?: { name?: string }[] }>({
      method: 'GET',
      path: `/apis/${group}/${version}`,
      signal,
    });
    return new Set((list.resources ?? []).flatMap((r) => (r.name ? [r.name] : [])));
  } catch (err) {
    if (isApiError(err, 404)) return new Set();
    throw err;
  }
}
