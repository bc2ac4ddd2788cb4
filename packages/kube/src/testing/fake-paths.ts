// Parses API paths the way the fake API server needs them, and matches its selectors.
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';

export interface ParsedPath {
  /** `v1` or `group/version`. */
  groupVersion: string;
  plural: string;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
}

/** `/api/v1/namespaces/ns/configmaps/name/status` -> its parts. Throws on a path the fake does not know. */
export function parseApiPath(path: string): ParsedPath {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let rest: string[];
  let groupVersion: string;
  if (parts[0] === 'api' && parts[1]) {
    groupVersion = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts[1] && parts[2]) {
    groupVersion = `${parts[1]}/${parts[2]}`;
    rest = parts.slice(3);
  } else {
    throw new Error(`fake API server: unknown path ${path}`);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource] = rest;
  if (!plural) throw new Error(`fake API server: no resource in ${path}`);
  return { groupVersion, plural, namespace, name, subresource };
}

/** Matches `k=v,k2=v2` label selectors (equality only, which is all the tests use). */
/**
 * Whether OBJ matches a field selector of `metadata.name=x` and `metadata.namespace=y` terms (the fields every kind
 * supports); any other field is refused with a 400, as the apiserver refuses a field label it does not index.
 */
export function matchesFields(obj: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [field, value] = term.split('=').map((x) => x.trim());
    if (field === 'metadata.name') return obj.metadata?.name === value;
    if (field === 'metadata.namespace') return obj.metadata?.namespace === value;
    throw new ApiError(400, { reason: 'BadRequest', message: `field label not supported: ${field ?? ''}` });
  });
}

export function matchesLabels(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return key !== undefined && (labels ?? {})[key.trim()] === value?.trim();
  });
}
