// A series' value as /metrics shows it, for tests that check what oooi-xds counts.
import type { Registry } from 'prom-client';

/** The value of NAME{LABELS} (a histogram's count: NAME_count), or undefined when /metrics has no such line. */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): Promise<number | undefined> {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const series = `${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} `;
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(series));
  return line === undefined ? undefined : Number(line.slice(series.length));
}
