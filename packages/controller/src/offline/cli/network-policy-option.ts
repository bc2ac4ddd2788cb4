// The NetworkPolicy flags, shared by `oooi render` and `oooi-controller` so both decide the same children
// (docs/network-policy.md): `--no-network-policy` turns the data-plane pods' policies off; the metrics ports admit
// the pods of `--network-policy-metrics-namespaces` (comma-separated namespace names; empty: nobody).
import type { Command } from 'commander';
import {
  DEFAULT_METRICS_NAMESPACES,
  parseMetricsNamespaces,
  type NetworkPolicyOptions,
} from '../../workload/network-policy';

export function addNetworkPolicyOptions(cmd: Command): Command {
  return cmd
    .option('--no-network-policy', "write no NetworkPolicy for the data-plane pods' pod-network side")
    .option(
      '--network-policy-metrics-namespaces <list>',
      'namespaces whose pods may scrape the data-plane metrics ports (comma-separated; empty: none)',
      DEFAULT_METRICS_NAMESPACES.join(','),
    );
}

export interface NetworkPolicyFlags {
  readonly networkPolicy: boolean;
  readonly networkPolicyMetricsNamespaces: string;
}

/** The options the flags say, or a usage message naming the flag and the bad entries. */
export function networkPolicyFrom(
  flags: NetworkPolicyFlags,
): { ok: true; value: NetworkPolicyOptions } | { ok: false; message: string } {
  const parsed = parseMetricsNamespaces(flags.networkPolicyMetricsNamespaces);
  if (!parsed.ok) {
    return {
      ok: false,
      message: `--network-policy-metrics-namespaces: not a namespace name: ${parsed.invalid.join(', ')}`,
    };
  }
  return { ok: true, value: { enabled: flags.networkPolicy, metricsNamespaces: parsed.value } };
}
