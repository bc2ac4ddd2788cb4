// Infra: one shared VLAN and its three components (docs/crd-reference.md is generated from this).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import {
  ipInCidr,
  ipNotGreater,
  ipOutsideRange,
  ipsDistinct,
  ipv4OrLiteral,
  duration,
  ipNotNetworkOrBroadcast,
  matches,
  refs,
  setTogether,
} from './cel';
import type { CelRule } from './cel';
import { cidrV4, dnsLabel, optionalFlag, image, ipv4, ipv4Regex, labelRegex, objectName } from './fields';
import { conditions, observedGeneration } from './status';
import { leaseStorage } from './dhcp-server';
import {
  eachIPDiffers,
  eachIPInCidr,
  eachIPNotNetworkOrBroadcast,
  eachIPOutsideRange,
  listsDisjoint,
} from './cel-list';
import { additionalServerIPs } from './server-addresses';
import { proxyHighAvailability } from './proxy-ha';
import { standbyServerIP } from './dhcp-ha';

export const NetworkConfig = Type.Object(
  {
    cidr: cidrV4(
      'spec.networkConfig.cidr',
      'IP range of the secondary network (the VLAN), IPv4 CIDR notation, e.g. 198.51.100.0/24. Every static address, the DHCP pool and MetalLB ranges must lie inside it; its prefix length is used for every Multus static IP.',
    ),
    gateway: ipv4(
      'spec.networkConfig.gateway',
      'Default gateway on the VLAN, e.g. 198.51.100.1; handed to VMs by DHCP (option 3). Must lie inside cidr.',
    ),
    networkAttachmentDefinition: objectName(
      'spec.networkConfig.networkAttachmentDefinition',
      'Name of the Multus NetworkAttachmentDefinition representing the VLAN (oooi never creates it; it must use the static IPAM plugin so per-pod IPs are honoured).',
      { minLength: 1 },
    ),
    networkAttachmentNamespace: Type.Optional(
      dnsLabel(
        'spec.networkConfig.networkAttachmentNamespace',
        'Namespace of the NetworkAttachmentDefinition. When empty, oooi uses the namespace of the Infra resource.',
      ),
    ),
    dnsServers: Type.Optional(
      Type.Array(
        Type.String({
          maxLength: 15,
          description: 'An IPv4 address, or the literal resolv.conf.',
          'x-kubernetes-validations': [ipv4OrLiteral('spec.networkConfig.dnsServers', 'resolv.conf')],
        }),
        {
          description:
            'Upstream DNS servers CoreDNS forwards every other name to. Entries are IPv4 addresses or the literal "resolv.conf" to inherit the node\'s resolvers (the DNS pod runs with dnsPolicy Default, so that is the node\'s /etc/resolv.conf, not the cluster DNS). Empty: the DNS component reports that it has no upstream; it never falls back to a public resolver.',
          maxItems: 8,
        },
      ),
    ),
  },
  { description: 'The secondary network (VLAN) the components are attached to through Multus. Required.' },
);

const internalProxyServiceRule: CelRule = matches(
  'spec.infraComponents.proxy.internalProxyService',
  `^(${ipv4Regex}|${labelRegex}[.]${labelRegex}([.]svc([.]${labelRegex})*)?)$`,
  'an IPv4 address or a Service name <service>.<namespace>[.svc[.<cluster domain>]]',
);

export const DhcpComponent = Type.Object(
  {
    enabled: optionalFlag(
      'Deploy the DHCPServer child and its workload. false stops reconciling it but keeps an existing child.',
      true,
    ),
    serverIP: Type.Optional(
      ipv4(
        'spec.infraComponents.dhcp.serverIP',
        'Static VLAN address of the DHCP server. Must be inside networkConfig.cidr and outside the pool. Required for the component to be created.',
      ),
    ),
    rangeStart: Type.Optional(
      ipv4(
        'spec.infraComponents.dhcp.rangeStart',
        'First address of the inclusive dynamic pool handed to VMs. Must be inside networkConfig.cidr; the pool must exclude every static address and MetalLB range.',
      ),
    ),
    rangeEnd: Type.Optional(
      ipv4(
        'spec.infraComponents.dhcp.rangeEnd',
        'Last address of the inclusive dynamic pool handed to VMs. Must not be lower than rangeStart.',
      ),
    ),
    leaseTime: Type.Optional(
      Type.String({
        description:
          'Lease duration in Go duration syntax with hours, minutes and seconds (30m, 1h, 24h); between 1m and 8760h.',
        default: '1h',
        maxLength: 32,
        'x-kubernetes-validations': duration('spec.infraComponents.dhcp.leaseTime', '1m', '8760h'),
      }),
    ),
    standbyServerIP: Type.Optional(
      standbyServerIP('spec.infraComponents.dhcp', 'serverIP', 'rangeStart..rangeEnd'),
    ),
    image: Type.Optional(image('Override the DHCP server image (oooi-dhcp), e.g. from a mirror registry.')),
    leaseStorage: Type.Optional(leaseStorage('spec.infraComponents.dhcp.leaseStorage')),
  },
  {
    description: 'DHCP for the worker VMs (KubeVirt-aware: a VM keeps its address across re-reconciles).',
    default: {},
  },
);

export const DnsComponent = Type.Object(
  {
    enabled: optionalFlag(
      'Deploy the DNSServer child and its CoreDNS workload. false stops reconciling it but keeps an existing child.',
      true,
    ),
    serverIP: Type.Optional(
      ipv4(
        'spec.infraComponents.dns.serverIP',
        'Static VLAN address of CoreDNS; DHCP hands it to VMs as their first resolver. Required for the component to be created.',
      ),
    ),
    additionalServerIPs: Type.Optional(
      additionalServerIPs(
        'spec.infraComponents.dns.additionalServerIPs',
        'HA mode: one more CoreDNS replica per address (0 to 3), each a single-replica Deployment on its own Multus static address, never on the node of another replica. DHCP hands VMs serverIP first, then these, in this order (option 6). Each must lie inside networkConfig.cidr, outside the DHCP pool, and differ from the gateway, every other static address and each other. Empty: one CoreDNS pod (serverIP).',
      ),
    ),
    image: Type.Optional(
      image('Override the CoreDNS image (upstream CoreDNS with the view plugin, 1.14.x).'),
    ),
  },
  { description: 'Split-horizon DNS (CoreDNS): a VLAN view and a pod-network view.', default: {} },
);

export const ProxyComponent = Type.Object(
  {
    enabled: optionalFlag(
      'Deploy the ProxyServer child and its Envoy workload. false stops reconciling it but keeps an existing child.',
      true,
    ),
    serverIP: Type.Optional(
      ipv4(
        'spec.infraComponents.proxy.serverIP',
        'Static VLAN address of Envoy (with highAvailability: the floating address the two Envoy pods share); the VLAN DNS view answers control-plane names with it. Required for the component to be created.',
      ),
    ),
    internalProxyService: Type.Optional(
      Type.String({
        description:
          'DNS name (<service>.<namespace>[.svc[.<cluster domain>]]) or ClusterIP of the proxy Service, used for the pod-network DNS view. Omit to hide hosted control-plane names from pods. Example: <infra>-proxy.clusters.svc.cluster.local.',
        maxLength: 253,
        'x-kubernetes-validations': [internalProxyServiceRule],
      }),
    ),
    proxyImage: Type.Optional(image('Envoy image (upstream envoyproxy/envoy).')),
    managerImage: Type.Optional(image('xDS manager sidecar image (oooi-xds).')),
    highAvailability: Type.Optional(proxyHighAvailability('spec.infraComponents.proxy.highAvailability')),
  },
  {
    description: 'Envoy L4 SNI-passthrough gateway to the hosted control planes, configured over xDS.',
    default: {},
  },
);

export const InfraComponents = Type.Object(
  {
    dhcp: Type.Optional(DhcpComponent),
    dns: Type.Optional(DnsComponent),
    proxy: Type.Optional(ProxyComponent),
  },
  { description: 'The three components placed on the VLAN. Each is enabled by default.', default: {} },
);

const r = refs('spec');
const cidr = r('networkConfig', 'cidr');
const gateway = r('networkConfig', 'gateway');
const dhcpIP = r('infraComponents', 'dhcp', 'serverIP');
const dnsIP = r('infraComponents', 'dns', 'serverIP');
const proxyIP = r('infraComponents', 'proxy', 'serverIP');
const start = r('infraComponents', 'dhcp', 'rangeStart');
const end = r('infraComponents', 'dhcp', 'rangeEnd');
const dhcpStandbyIP = r('infraComponents', 'dhcp', 'standbyServerIP');
/** The scalar static addresses; the DHCP pair's standby (dhcp-ha.ts) is one of them. */
const statics = [dhcpIP, dnsIP, proxyIP, dhcpStandbyIP];
/** HA mode's lists of additional static addresses; each entry is checked like a static address. */
const staticLists = [
  r('infraComponents', 'dns', 'additionalServerIPs'),
  r('infraComponents', 'proxy', 'highAvailability', 'replicaIPs'),
];

/** Each list's entries: inside the CIDR, not its network/broadcast, outside the pool, distinct from the rest. */
function staticListRules(): CelRule[] {
  return staticLists.flatMap((list, i) => [
    eachIPInCidr(list, cidr),
    eachIPNotNetworkOrBroadcast(list, cidr),
    eachIPOutsideRange(list, start, end),
    ...[gateway, ...statics].map((ip) => eachIPDiffers(list, ip)),
    ...staticLists.slice(i + 1).map((other) => listsDisjoint(list, other)),
  ]);
}

export const infraSpecRules: CelRule[] = [
  ipInCidr(gateway, cidr),
  ...statics.map((ip) => ipInCidr(ip, cidr)),
  ipInCidr(start, cidr),
  ipInCidr(end, cidr),
  ...[gateway, ...statics, start, end].map((ip) => ipNotNetworkOrBroadcast(ip, cidr)),
  setTogether(start, end),
  ipNotGreater(start, end),
  ...[gateway, ...statics].map((ip) => ipOutsideRange(ip, start, end)),
  ...statics.map((ip) => ipsDistinct(ip, gateway)),
  ...statics.flatMap((a, i) => statics.slice(i + 1).map((b) => ipsDistinct(a, b))),
  ...staticListRules(),
];

export const InfraSpec = Type.Object(
  { networkConfig: NetworkConfig, infraComponents: Type.Optional(InfraComponents) },
  {
    description:
      'Shared VLAN and component configuration. Per-cluster data comes only from InfraClusterAttachments.',
    'x-kubernetes-validations': infraSpecRules,
  },
);

export const InfraStatus = Type.Object(
  {
    conditions: conditions(
      "Ready=True confirms that oooi provisioned the declared components (it does not confirm availability); Available reflects the children's workloads.",
    ),
    observedGeneration,
    componentStatus: Type.Optional(
      Type.Object(
        {
          dhcpReady: Type.Optional(
            Type.Boolean({ description: 'The DHCP component is enabled and its child provisioned.' }),
          ),
          dnsReady: Type.Optional(
            Type.Boolean({ description: 'The DNS component is enabled and its child provisioned.' }),
          ),
          proxyReady: Type.Optional(
            Type.Boolean({
              description: 'The proxy is enabled and has at least one valid aggregated backend.',
            }),
          ),
        },
        {
          description:
            'Provisioning booleans per component; check the Available condition for runtime readiness.',
        },
      ),
    ),
    attachments: Type.Optional(
      Type.Object(
        {
          total: Type.Integer({ description: 'InfraClusterAttachments targeting this Infra.', minimum: 0 }),
          ready: Type.Integer({ description: 'How many of them are Ready.', minimum: 0 }),
        },
        { description: 'Attachment counts.' },
      ),
    ),
  },
  { description: 'Observed state, written by the controller.' },
);

export type InfraSpec = Static<typeof InfraSpec>;
export type InfraStatus = Static<typeof InfraStatus>;
