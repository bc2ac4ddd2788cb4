// The Envoy bootstrap of a ProxyServer pod (the ConfigMap's `envoy.yaml`): no routes of its own, only delta ADS to
// the oooi-xds sidecar on loopback (127.0.0.1:spec.xdsPort), the node id `<namespace>/<name>` of the ProxyServer
// (what the sidecar's logs name), and the admin endpoint on 127.0.0.1:spec.adminPort — never 0.0.0.0, so neither
// the VLAN nor the pod network reaches it. The routes come over ADS, so a changed spec.backends never changes this
// file and never restarts Envoy. `@oooi/envoy`'s renderAdsBootstrap writes it (proto3 JSON, valid YAML), the same
// function the xDS e2e tests run Envoy with.
import { renderAdsBootstrap } from '@oooi/envoy';
import type { ProxyServer, ProxyServerSpec } from '@oooi/api';
import { word } from '../../workload/generated-text';
import { namespaceOf } from '../../workload/meta';

/** The ConfigMap key and the file Envoy reads (`-c /etc/envoy/envoy.yaml`). */
export const BOOTSTRAP_KEY = 'envoy.yaml';
/** Where the sidecar listens for ADS, inside the pod. */
export const XDS_HOST = '127.0.0.1';
/** Envoy's admin address: loopback only. */
export const ADMIN_HOST = '127.0.0.1';

/** The node id of PROXY's Envoy: `<namespace>/<name>`. */
export function proxyNodeId(proxy: ProxyServer): string {
  return `${word(namespaceOf(proxy), 'the ProxyServer namespace')}/${word(proxy.metadata.name, 'the ProxyServer name')}`;
}

export function renderProxyBootstrap(
  proxy: ProxyServer,
  spec: Pick<ProxyServerSpec, 'xdsPort' | 'adminPort'>,
): string {
  return renderAdsBootstrap({
    id: proxyNodeId(proxy),
    adminPort: spec.adminPort ?? 9901,
    xdsAddress: XDS_HOST,
    xdsPort: spec.xdsPort ?? 18000,
    delta: true,
  });
}
