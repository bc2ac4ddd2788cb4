// Order statistics of a handful of samples (nearest rank) and their formatting.

/** The P-th percentile (0–100) by nearest rank; NaN when there are no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const median = (xs: readonly number[]): number => percentile(xs, 50);

/** "12.3" (ms with one decimal under 100, none above). */
export function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

/** "median / p90". */
export const medP90 = (xs: readonly number[]): string => `${fmt(median(xs))} / ${fmt(percentile(xs, 90))}`;

/** ours/theirs with two decimals. */
export function ratio(ours: number, theirs: number): string {
  return Number.isFinite(ours) && Number.isFinite(theirs) && theirs > 0 ? (ours / theirs).toFixed(2) : '–';
}
