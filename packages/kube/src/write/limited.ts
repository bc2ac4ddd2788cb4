// Runs one async step per item with at most LIMIT in flight: the writes of one reconcile pass that do not depend on
// each other (e.g. a Role and RoleBinding in each of many namespaces) overlap their round trips instead of queueing
// behind each other, while the client's rate limiter and the apiserver see a bounded burst.
/**
 * Calls STEP for every item, at most LIMIT at a time, in ITEMS' order of start; resolves with the results in ITEMS'
 * order. After a step throws, no new step starts; the first error is rethrown once the steps in flight have ended.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  step: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`mapLimited: limit must be ≥ 1, got ${limit}`);
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  let failed: { err: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failed === undefined && next < items.length) {
      const i = next++;
      try {
        out[i] = await step(items[i]!, i);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed !== undefined) throw failed.err;
  return out;
}
