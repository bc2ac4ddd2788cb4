// One ordering for every list the controller emits: plain code-unit comparison, never locale-dependent.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts a copy by the given key. */
export function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((x, y) => compareText(key(x), key(y)));
}
