// @oooi/api — the kinds of hostedcluster.densityops.com/v1alpha1: schemas (one source of truth for
// crds/ and the docs), static types, defaults, and validation (single-object and cross-object).
export { GROUP, VERSION, API_VERSION, kinds, kindInfo } from './kinds';
export type { KindInfo, KindName, PrinterColumn } from './kinds';
export type {
  Infra,
  InfraClusterAttachment,
  HostedClusterGrant,
  DHCPServer,
  DNSServer,
  ProxyServer,
  OooiObject,
  ObjectMeta,
  OwnerReference,
} from './types';
export type { InfraSpec, InfraStatus } from './schema/infra';
export type {
  InfraClusterAttachmentSpec,
  InfraClusterAttachmentStatus,
} from './schema/infra-cluster-attachment';
export type {
  DhcpServerSpec,
  DhcpServerStatus,
  DhcpOptions,
  DhcpKubevirtSpec,
  DhcpLeaseStorage,
} from './schema/dhcp-server';
export { DEFAULT_LEASE_STORAGE_SIZE, DEFAULT_RELEASE_GRACE } from './schema/dhcp-server';
export type { HostedClusterGrantSpec } from './schema/hosted-cluster-grant';
export { MAX_GRANT_ENTRIES } from './schema/hosted-cluster-grant';
export {
  referenceRefusal,
  grantPermits,
  hostedClusterOf,
  hyperShiftControlPlaneNamespace,
} from './validate/references';
export type { ReferenceReason, ReferenceRefusal } from './validate/references';
export type { DnsServerSpec, DnsServerStatus } from './schema/dns-server';
export { MAX_ADDITIONAL_SERVER_IPS } from './schema/server-addresses';
export type { ProxyBackend, ProxyServerSpec, ProxyServerStatus } from './schema/proxy-server';
export type { ProxyHighAvailability } from './schema/proxy-ha';
export { VRID_MAX, VRID_MIN } from './schema/proxy-ha';
export { DHCP_HA_PORT } from './schema/dhcp-ha';
export type { Condition } from './schema/status';
export { toCrd } from './crd/crd';
export { applyDefaults } from './defaults';
export { validateObject } from './validate/validate-object';
export {
  validateMetadata,
  dnsLabelErrors,
  labelErrors,
  annotationErrors,
  qualifiedNameErrors,
  MAX_ANNOTATIONS_BYTES,
} from './validate/validate-metadata';
export { formatFieldError } from './validate/field-error';
export {
  validateCross,
  findDuplicateAttachments,
  checkAppsRanges,
  findHostedClusterAcrossInfras,
  attachmentDomain,
  staticAddresses,
  dhcpPool,
} from './validate/validate-cross';
export type { CrossProblem, CrossReason, ObjectField } from './validate/validate-cross';
export type { FieldError, ValidationResult } from './validate/field-error';
export {
  parseIPv4,
  isIPv4,
  formatIPv4,
  parseCidrV4,
  cidrContains,
  netmaskOf,
  parseAddressRange,
  rangesOverlap,
  formatRange,
} from './ip-address';
export type { CidrV4, IPv4Range } from './ip-address';
export { parseGoDuration } from './duration';
export { DhcpConfig as DhcpConfigSchema, DHCP_CONFIG_VERSION } from './dhcp-config/dhcp-config';
export type {
  DhcpConfig,
  DhcpReservation,
  DhcpClasslessRoute,
  DhcpKubevirt,
  DhcpStatusTarget,
  DhcpHighAvailability,
} from './dhcp-config/dhcp-config';
export { validateDhcpConfig, isDnsName } from './dhcp-config/validate-dhcp-config';
