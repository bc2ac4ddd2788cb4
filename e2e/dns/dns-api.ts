// The DNS pieces of @oooi/controller used by these tests. They come from the package's dns entry directly until
// the package's public index re-exports it (the controller engineer owns packages/controller/src/index.ts);
// then this file becomes `export … from '@oooi/controller'`.
export {
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  DnsServerKind,
  ConfigMapKind,
  DeploymentKind,
  ServiceKind,
  renderDnsServer,
  setupDnsServerController,
  type RenderedDnsServer,
} from '../../packages/controller/src/dns/index';
