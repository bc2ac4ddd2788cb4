// What each write in the idle window changed (`run.ts --idle-diff`): an update handler on the bench's own watch
// caches that, while armed, notes per update the object, the managedFields entries that changed (who wrote it:
// manager, operation, subresource) and the paths that differ between the old and the new object, with both values.
// Conditions and other lists of objects with a `type` or `name` are keyed by it, so a reordering shows as one.
import type { KubeObject, ListWatchCache } from '@oooi/kube';

/** path → JSON of a leaf. Lists of objects keyed by `type` (conditions) or `name`, else by index. */
export function flatten(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, '[]');
    value.forEach((item, i) => {
      const key =
        (item as { type?: unknown; name?: unknown } | null)?.type ?? (item as { name?: unknown })?.name;
      flatten(item, `${path}[${typeof key === 'string' ? key : i}]`, out);
    });
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(path, '{}');
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

const clip = (s: string | undefined): string =>
  s === undefined ? '∅' : s.length > 160 ? `${s.slice(0, 157)}...` : s;

/** The paths that differ between two objects, as `path: before → after` (resourceVersion and managedFields aside). */
export function changedPaths(before: KubeObject, after: KubeObject): string[] {
  const strip = (o: KubeObject): unknown => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: undefined, managedFields: undefined },
  });
  const a = flatten(strip(before));
  const b = flatten(strip(after));
  const out: string[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()]))
    if (a.get(path) !== b.get(path)) out.push(`${path}: ${clip(a.get(path))} → ${clip(b.get(path))}`);
  return out.sort();
}

interface ManagedEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: string;
}

/** The managedFields entries of `after` that are new or differ from `before`'s (who wrote this version). */
export function writers(before: KubeObject, after: KubeObject): string[] {
  const entries = (o: KubeObject): ManagedEntry[] => o.metadata?.managedFields ?? [];
  const old = new Set(entries(before).map((e) => JSON.stringify(e)));
  return entries(after)
    .filter((e) => !old.has(JSON.stringify(e)))
    .map((e) => `${e.manager} ${e.operation}${e.subresource ? ` /${e.subresource}` : ''} at ${e.time}`);
}

/** Notes every update of the given caches while armed; `lines()` returns what was noted. */
export class IdleDiff {
  private armed = false;
  private readonly noted: string[] = [];

  constructor(caches: Array<[string, ListWatchCache]>) {
    for (const [kind, cache] of caches)
      cache.addHandler({
        onUpdate: (before, after) => {
          if (!this.armed) return;
          const name = `${kind} ${after.metadata?.namespace}/${after.metadata?.name}`;
          const at = new Date().toISOString();
          this.noted.push(
            `${at} ${name} rv ${before.metadata?.resourceVersion} → ${after.metadata?.resourceVersion}` +
              ` by ${writers(before, after).join('; ') || '(no managedFields change)'}`,
            ...changedPaths(before, after).map((p) => `    ${p}`),
          );
        },
      });
  }

  arm(): void {
    this.armed = true;
  }

  disarm(): void {
    this.armed = false;
  }

  lines(): string[] {
    return [...this.noted];
  }
}
