// "Did it change?" is answered by comparing canonical serialisations, never by a home-made deep equality (one that
// walks only the keys of its first argument calls an added field "equal"), plus one documented subset rule for
// comparing what we apply with what the server holds.

/** JSON with object keys sorted at every level and `undefined` members dropped: equal values, equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) out[key] = sortKeys(child);
  }
  return out;
}

/**
 * True when every field set in `want` holds the same value in `live`, i.e. applying `want` would not change a
 * value. Objects: each member of `want` must be a subset of the same member of `live` (a `null` in `want` means
 * "absent"). Arrays of the same length: element by element. A longer `live` array of objects (a list-map that
 * other managers add entries to): each element of `want` must be a subset of some element of `live`. Anything
 * else: canonical equality.
 */
export function isSubset(want: unknown, live: unknown): boolean {
  if (want === null) return live === null || live === undefined;
  if (Array.isArray(want)) return Array.isArray(live) && arraySubset(want, live);
  if (typeof want === 'object') {
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    const liveObj = live as Record<string, unknown>;
    return Object.entries(want).every(([key, child]) => child === undefined || isSubset(child, liveObj[key]));
  }
  return canonicalJson(want) === canonicalJson(live);
}

function arraySubset(want: unknown[], live: unknown[]): boolean {
  if (want.length === live.length) return want.every((item, i) => isSubset(item, live[i]));
  if (want.length > live.length) return false;
  const objects = want.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
  return objects && want.every((item) => live.some((candidate) => isSubset(item, candidate)));
}
