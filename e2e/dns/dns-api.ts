// The DNS pieces of @oooi/controller used by these tests, from the package's public entry.
export {
  builtinImages,
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  DnsServerKind,
  ConfigMapKind,
  DeploymentKind,
  ServiceKind,
  planDnsServer,
  setupDnsServerController,
  type DnsServerPlan,
} from '@oooi/controller';
