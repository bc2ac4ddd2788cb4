// The shape of a row of refused-classes.ts (what the validator refuses and what Envoy does with it unvalidated), the
// addresses the e2e lab serves it with, and the backend builder the rows use. Test data only.
import type { ProxyBackend, ProxyServerSpec } from '@oooi/api';
import type { TranslateOptions } from '../translate/resources';

/**
 * What happens to the class without the validator:
 * - `nack`: Envoy refuses the translated resources (the message contains `nack`);
 * - `ack`: Envoy takes them; the class is refused for the reason in `why` (the CRD refuses it too, or the route
 *   would be silently wrong);
 * - `reaches-admin`: Envoy takes them and a client of the proxy reaches Envoy's own admin through the route;
 * - `translate-throws`: the translator (or the protobuf encoder) throws, so nothing reaches Envoy.
 */
export type EnvoyOutcome =
  | { readonly kind: 'nack'; readonly nack: string }
  | { readonly kind: 'ack'; readonly why: string }
  | { readonly kind: 'reaches-admin' }
  | { readonly kind: 'translate-throws' };

export interface RefusedClass {
  readonly what: string;
  /** The backends as a file could carry them (not necessarily of the ProxyBackend type). */
  readonly backends: readonly unknown[];
  /** Other spec fields (networkConfig, adminPort). */
  readonly spec?: Partial<Omit<ProxyServerSpec, 'backends'>>;
  readonly options?: TranslateOptions;
  /** The validator's errors, `path: message`, in its order. */
  readonly errors: readonly string[];
  readonly envoy: EnvoyOutcome;
}

/** The address of the test backends in e2e/xds/lab.ts (the pod network). */
export const REFUSED_TARGET = '203.0.113.10';
/** The Envoy admin port of the e2e bootstrap (the spec's default adminPort). */
export const REFUSED_ADMIN_PORT = 9901;
/** The proxy's serverIP in the e2e lab. */
export const REFUSED_SERVER_IP = '198.51.100.2';

export function b(name: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    hostname: `${name}.example.test`,
    port: 443,
    targetService: REFUSED_TARGET,
    targetPort: 9001,
    targetNamespace: 'ns',
    ...over,
  };
}

/** The spec of a class, as the validator and the translator take it. */
export function refusedSpec(c: RefusedClass): Partial<ProxyServerSpec> {
  return { ...c.spec, backends: c.backends as ProxyBackend[] };
}
