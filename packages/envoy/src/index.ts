// @oooi/envoy — public entry. See README.md.
export { translateProxyServer, servedBackends } from './translate/translate-proxy-server';
export { TYPE_URL } from './translate/resources';
export type { EnvoyResources, ResourceTypeUrl, TranslateOptions } from './translate/resources';
export { listenerName } from './translate/backends-to-listeners';
export { ClusterMemo } from './translate/backends-to-clusters';
export { validateProxyServer } from './validate/validate-proxy-server';
export {
  renderAdsBootstrap,
  renderStaticBootstrap,
  resourcesToJson,
  XDS_CLUSTER,
} from './render/render-bootstrap';
export type { AdsBootstrapOptions, BootstrapNode } from './render/render-bootstrap';
export { Cluster } from './generated/envoy/config/cluster/v3/cluster';
export { Listener } from './generated/envoy/config/listener/v3/listener';
export { Any } from './generated/google/protobuf/any';
export {
  DiscoveryRequest,
  DiscoveryResponse,
  DeltaDiscoveryRequest,
  DeltaDiscoveryResponse,
  Resource,
} from './generated/envoy/service/discovery/v3/discovery';
export { AggregatedDiscoveryServiceDefinition } from './generated/envoy/service/discovery/v3/ads';
