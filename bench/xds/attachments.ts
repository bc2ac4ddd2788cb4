// The bench's ProxyServer: N attachments shaped as the Infra reconciler writes them (@oooi/envoy/testing's
// attachmentBackends: api and api-int on 6443; oauth, ignition and konnectivity on 443): 5 SNI-routed backends, so
// 5 clusters and no chain of its own as oooi-xds serves it, 5 filter chains + 5 clusters in the anchor's shape. Targets are IPv4 addresses (STATIC clusters) instead of Service names: a LOGICAL_DNS cluster
// makes Envoy resolve its name every few seconds, which would add 5,000 DNS lookups of background work (and needs
// a resolver) without changing what is compared. 10.128.0.0/14 is data only: nothing connects to it.
import { createHash } from 'node:crypto';
import type { ProxyBackend, ProxyServerSpec } from '@oooi/api';
import {
  translateProxyServer,
  validateProxyServer,
  type EnvoyResources,
  type TranslateOptions,
} from '@oooi/envoy';
import { attachmentBackends } from '@oooi/envoy/testing';

/** Attachment i's target address: 10.128.0.0 + i (a /14 holds far more than the bench needs). */
function targetIp(i: number, variant: number): string {
  const n = i + variant * 65_536;
  return `10.${128 + Math.floor(n / 65_536)}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/**
 * The backends of attachment I. VARIANT 0 is the base; every other variant is "one changed attachment": another
 * base domain (so its five SNI matches change: two chains on 6443, three on 443) and another target address (so
 * its five clusters change). Names stay, so nothing is added or removed.
 */
export function attachment(i: number, variant = 0): ProxyBackend[] {
  const name = `a${String(i).padStart(4, '0')}`;
  const domain = variant === 0 ? `${name}.example.test` : `${name}-v${variant}.example.test`;
  return attachmentBackends({ name, domain, namespace: `clusters-${name}` }).map((b) => ({
    ...b,
    targetService: targetIp(i, variant),
  }));
}

/** The spec with N attachments; CHANGED = attachment index → variant. */
export function benchSpec(n: number, changed: ReadonlyMap<number, number> = new Map()): ProxyServerSpec {
  return {
    networkConfig: { serverIP: '198.51.100.2' },
    backends: Array.from({ length: n }, (_, i) => attachment(i, changed.get(i) ?? 0)).flat(),
  } as ProxyServerSpec;
}

/** Validates and translates (throws on an invalid spec: the generator must produce valid ones). */
export function resourcesOf(spec: ProxyServerSpec, options: TranslateOptions = {}): EnvoyResources {
  const checked = validateProxyServer(spec);
  if (!checked.ok) throw new Error(`bench spec invalid: ${JSON.stringify(checked.errors.slice(0, 3))}`);
  return translateProxyServer(spec, options);
}

/** A short fingerprint of the translated resources (to show both servers were handed the same input). */
export function fingerprint(r: EnvoyResources): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(r));
  return h.digest('hex').slice(0, 12);
}
