// DHCPServer: the complete DHCP configuration of one oooi-dhcp workload (written by the Infra, or standalone).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import {
  addressOrRange,
  duration,
  ipInCidr,
  ipNotGreater,
  ipNotNetworkOrBroadcast,
  ipOutsideRange,
  ipsDistinct,
  matches,
  refs,
  routeDestination,
} from './cel';
import type { CelRule } from './cel';
import { dnsLabel, dnsSubdomainPattern, enumOf, image, ipv4, labelRegex, objectName } from './fields';
import { childNetworkProperties, childNetworkRules } from './child-network';
import { conditions, observedGeneration } from './status';
import { dhcpStandbyRules, standbyServerIP } from './dhcp-ha';

const r = refs('spec');

/** Refusing every client that no VMI reports only makes sense when some namespace's VMIs are read. */
const refuseNeedsNamespaces: CelRule = {
  rule: "!has(self.kubevirt) || !has(self.kubevirt.unknownClients) || self.kubevirt.unknownClients != 'refuse' || (has(self.kubevirt.namespaces) && size(self.kubevirt.namespaces) > 0)",
  message:
    'spec.kubevirt.namespaces must not be empty when spec.kubevirt.unknownClients is refuse (no client could get a lease)',
  fieldPath: '.kubevirt.namespaces',
  check: (self) => {
    const k = (self as { kubevirt?: { unknownClients?: unknown; namespaces?: unknown[] } }).kubevirt;
    return k?.unknownClients !== 'refuse' || (k.namespaces?.length ?? 0) > 0;
  },
};
const cidr = r('networkConfig', 'cidr');
const gateway = r('networkConfig', 'gateway');
const serverIP = r('networkConfig', 'serverIP');
const standbyIP = r('networkConfig', 'standbyServerIP');
const start = r('leaseConfig', 'rangeStart');
const end = r('leaseConfig', 'rangeEnd');

export const dhcpServerSpecRules: CelRule[] = [
  ipInCidr(gateway, cidr),
  ipInCidr(start, cidr),
  ipInCidr(end, cidr),
  ...[gateway, start, end].map((ip) => ipNotNetworkOrBroadcast(ip, cidr)),
  ipNotGreater(start, end),
  ipOutsideRange(serverIP, start, end),
  ipOutsideRange(gateway, start, end),
  ipsDistinct(serverIP, gateway),
  // the hot-standby pair's second address (dhcp-ha.ts): checked like serverIP, and distinct from it
  ...dhcpStandbyRules(standbyIP, { cidr, gateway, start, end, others: [serverIP] }),
  refuseNeedsNamespaces,
];

/** The pod's lease store is a PersistentVolumeClaim of this size when a storage class is named. */
export const DEFAULT_LEASE_STORAGE_SIZE = '64Mi';
/** A VMI's lease is kept this long after it is deleted (a VMI owned by a VirtualMachine keeps it while the VM exists). */
export const DEFAULT_RELEASE_GRACE = '5m';

const opts = 'spec.options';
const kv = 'spec.kubevirt';

export const DhcpOptions = Type.Object(
  {
    domainName: Type.Optional(
      Type.String({
        description: 'Domain name (option 15): lower-case labels, such as vlan.example.com.',
        maxLength: 253,
        'x-kubernetes-validations': [
          matches(
            `${opts}.domainName`,
            dnsSubdomainPattern,
            'a lower-case DNS name such as vlan.example.com',
          ),
        ],
      }),
    ),
    searchList: Type.Optional(
      Type.Array(
        Type.String({
          description: 'A search domain.',
          maxLength: 253,
          'x-kubernetes-validations': [
            matches(
              `${opts}.searchList[*]`,
              dnsSubdomainPattern,
              'a lower-case DNS name such as vlan.example.com',
            ),
          ],
        }),
        { description: 'Domain search list (option 119, RFC 3397), in order.', maxItems: 32 },
      ),
    ),
    mtu: Type.Optional(
      Type.Integer({ description: 'Interface MTU (option 26), 68-65535.', minimum: 68, maximum: 65535 }),
    ),
    classlessRoutes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            destination: Type.String({
              description:
                'Destination network, a.b.c.d/n with its host bits zero (0.0.0.0/0: a default route).',
              maxLength: 18,
              'x-kubernetes-validations': routeDestination(`${opts}.classlessRoutes[*].destination`),
            }),
            router: ipv4(`${opts}.classlessRoutes[*].router`, 'Next hop; 0.0.0.0 means on-link.'),
          },
          { description: 'One classless static route.' },
        ),
        {
          description:
            'Classless static routes (option 121, RFC 3442), in order. A client that takes them ignores the router option (3): add 0.0.0.0/0 to keep a default route.',
          maxItems: 32,
        },
      ),
    ),
    ntpServers: Type.Optional(
      Type.Array(ipv4(`${opts}.ntpServers[*]`, 'An IPv4 NTP server.'), {
        description: 'NTP servers (option 42), in order.',
        maxItems: 16,
      }),
    ),
  },
  {
    description:
      'Options handed to every client besides the subnet mask, broadcast address, router (gateway) and resolvers (networkConfig.dnsServers).',
  },
);

export const DhcpKubevirt = Type.Object(
  {
    namespaces: Type.Optional(
      Type.Array(dnsLabel(`${kv}.namespaces[*]`, 'A namespace.'), {
        description:
          "Namespaces whose VirtualMachineInstances and VirtualMachines the server reads (the controller binds it the VMI-reader ClusterRole in each; only these are watched). For an Infra child: the attachments' control-plane namespaces. Empty: no VMI is read and every client is served from the pool.",
        maxItems: 256,
      }),
    ),
    networkName: Type.Optional(
      Type.String({
        description:
          'The network that identifies the VLAN interface on a VMI, matched against spec.networks[].multus.networkName: a NetworkAttachmentDefinition "namespace/name" or "name". Default: networkConfig.networkAttachmentNamespace (else this object\'s namespace) "/" networkConfig.networkAttachmentName.',
        maxLength: 317,
        'x-kubernetes-validations': [
          matches(
            `${kv}.networkName`,
            `^(${labelRegex}/)?${labelRegex}([.]${labelRegex})*$`,
            'a NetworkAttachmentDefinition "namespace/name" or "name"',
          ),
        ],
      }),
    ),
    unknownClients: Type.Optional(
      enumOf(
        ['serve', 'refuse'] as const,
        'A client whose hardware address no VMI in the namespaces reports on the network: serve (from the pool) or refuse (no reply).',
        'serve',
      ),
    ),
    releaseGrace: Type.Optional(
      Type.String({
        description:
          'How long the lease of a deleted VMI that no VirtualMachine owns is kept before it is released (hours, minutes, seconds); between 0s and 24h.',
        default: DEFAULT_RELEASE_GRACE,
        maxLength: 32,
        'x-kubernetes-validations': duration(`${kv}.releaseGrace`, '0s', '24h'),
      }),
    ),
  },
  { description: 'KubeVirt awareness: addresses and host names that VirtualMachineInstances report.' },
);

/**
 * Where the lease journal lives; PATH is the field's own path (spec.leaseStorage on a DHCPServer,
 * spec.infraComponents.dhcp.leaseStorage on an Infra, which passes it to its DHCPServer child as it is).
 */
export function leaseStorage(path: string) {
  return Type.Object(
    {
      storageClassName: Type.Optional(
        objectName(
          `${path}.storageClassName`,
          'StorageClass of a PersistentVolumeClaim (ReadWriteOnce) holding the lease store. Empty: an emptyDir (leases are lost with the pod; VMI-reported addresses bring VMs back to theirs, and oooi-dhcp probes the addresses it has no record of before offering them for one lease time).',
        ),
      ),
      size: Type.Optional(
        Type.String({
          description: 'Size of the PersistentVolumeClaim, in Mi or Gi.',
          default: DEFAULT_LEASE_STORAGE_SIZE,
          maxLength: 8,
          pattern: '^[1-9][0-9]{0,5}(Mi|Gi)$',
        }),
      ),
    },
    { description: 'Where the lease journal lives.' },
  );
}

export const DhcpLeaseStorage = leaseStorage('spec.leaseStorage');

export const DhcpServerSpec = Type.Object(
  {
    networkConfig: Type.Object(
      {
        ...childNetworkProperties('DHCP server'),
        networkAttachmentName: objectName(
          'spec.networkConfig.networkAttachmentName',
          'Multus NetworkAttachmentDefinition of the VLAN: the pod serves through this interface (net1).',
        ),
        gateway: ipv4(
          'spec.networkConfig.gateway',
          'Router handed to clients (option 3). Must lie inside cidr.',
        ),
        standbyServerIP: Type.Optional(
          standbyServerIP('spec.networkConfig', 'serverIP', 'spec.leaseConfig.rangeStart..rangeEnd'),
        ),
        dnsServers: Type.Optional(
          Type.Array(ipv4('spec.networkConfig.dnsServers[*]', 'An IPv4 resolver.'), {
            description: 'Resolvers handed to clients (option 6), all of them, in order.',
            maxItems: 8,
          }),
        ),
      },
      {
        description: 'The VLAN and the addresses handed out with every lease.',
        'x-kubernetes-validations': childNetworkRules(),
      },
    ),
    leaseConfig: Type.Object(
      {
        rangeStart: ipv4('spec.leaseConfig.rangeStart', 'First address of the inclusive pool.'),
        rangeEnd: ipv4('spec.leaseConfig.rangeEnd', 'Last address of the inclusive pool.'),
        leaseTime: Type.Optional(
          Type.String({
            description:
              'Lease duration in Go duration syntax with hours, minutes and seconds (30m, 1h, 24h); between 1m and 8760h.',
            default: '1h',
            maxLength: 32,
            'x-kubernetes-validations': duration('spec.leaseConfig.leaseTime', '1m', '8760h'),
          }),
        ),
        excluded: Type.Optional(
          Type.Array(
            Type.String({
              description: 'An address, a range or a CIDR.',
              maxLength: 33,
              'x-kubernetes-validations': [addressOrRange('spec.leaseConfig.excluded[*]')],
            }),
            {
              description:
                "Addresses never offered: a.b.c.d, an inclusive range a.b.c.d-e.f.g.h, or a CIDR. The gateway and serverIP never are anyway. For an Infra child: the gateway, the DNS and proxy server addresses and the attachments' MetalLB ranges.",
              maxItems: 256,
            },
          ),
        ),
      },
      { description: 'The dynamic pool.' },
    ),
    options: Type.Optional(DhcpOptions),
    kubevirt: Type.Optional(DhcpKubevirt),
    leaseStorage: Type.Optional(DhcpLeaseStorage),
    image: Type.Optional(image('The oooi-dhcp image.')),
  },
  { description: 'A DHCPv4 server on the VLAN.', 'x-kubernetes-validations': dhcpServerSpecRules },
);

export const DhcpServerStatus = Type.Object(
  {
    conditions: conditions(
      'Ready (provisioned) and Available (workload) from the controller; lease conditions from oooi-dhcp.',
    ),
    observedGeneration,
    activeLeases: Type.Optional(
      Type.Integer({ description: 'Unexpired leases (written by oooi-dhcp).', minimum: 0 }),
    ),
    totalLeases: Type.Optional(
      Type.Integer({
        description: 'Lease records held, expired ones included (written by oooi-dhcp).',
        minimum: 0,
      }),
    ),
    poolSize: Type.Optional(Type.Integer({ description: 'Addresses in the pool.', minimum: 0 })),
    configMapName: Type.Optional(
      Type.String({ description: 'ConfigMap holding the rendered configuration.', maxLength: 253 }),
    ),
    deploymentName: Type.Optional(Type.String({ description: 'The workload.', maxLength: 253 })),
  },
  { description: 'Observed state.' },
);

export type DhcpServerSpec = Static<typeof DhcpServerSpec>;
export type DhcpOptions = Static<typeof DhcpOptions>;
export type DhcpKubevirtSpec = Static<typeof DhcpKubevirt>;
export type DhcpLeaseStorage = Static<typeof DhcpLeaseStorage>;
export type DhcpServerStatus = Static<typeof DhcpServerStatus>;
