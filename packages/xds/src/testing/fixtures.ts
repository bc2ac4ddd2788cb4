// Backends and snapshots the xds unit tests share.
import type { ProxyBackend } from '@oooi/api';
import { translateProxyServer } from '@oooi/envoy';
import { attachmentBackends } from '@oooi/envoy/testing';
import { buildSnapshot, type Snapshot } from '../cache/snapshot';

/** Two hosted clusters' backends, as an attachment contributes them. */
export const alpha = attachmentBackends({
  name: 'alpha',
  domain: 'alpha.example.test',
  namespace: 'clusters-alpha',
});
export const bravo = attachmentBackends({
  name: 'bravo',
  domain: 'bravo.example.test',
  namespace: 'clusters-bravo',
});

/** NAME.example.test on port 443 to 203.0.113.7:TARGETPORT. */
export const backend = (name: string, targetPort = 8443): ProxyBackend => ({
  name,
  hostname: `${name}.example.test`,
  port: 443,
  targetService: '203.0.113.7',
  targetPort,
  targetNamespace: 'ns',
});

/** The snapshot of BACKENDS without SNI routing (one listener chain per backend, clusters named as the backends). */
export const plainSnapshot = (...backends: ProxyBackend[]): Snapshot =>
  buildSnapshot(translateProxyServer({ backends }, { sniRouting: false }));
