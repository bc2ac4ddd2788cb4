// DNSServer: the complete record set of both views of one CoreDNS workload (written by the Infra, or standalone).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { ipv4OrLiteral, refs } from './cel';
import { eachIPDiffers, eachIPInCidr, eachIPNotNetworkOrBroadcast } from './cel-list';
import { additionalServerIPs } from './server-addresses';
import { hostnameByPattern, image, ipv4ByPattern, port } from './fields';
import { childNetworkProperties, childNetworkRules } from './child-network';
import { conditions, observedGeneration } from './status';

export function dnsRecords() {
  return Type.Array(
    Type.Object(
      {
        // OpenAPI patterns, not CEL, per record: a view holds up to 4,096 (see proxy-server.ts's backends).
        name: hostnameByPattern(
          'Fully qualified name without the trailing dot; may start with a "*." wildcard label (RFC 4592) or be a single label such as kubernetes.',
        ),
        ip: ipv4ByPattern('The A record.'),
      },
      { description: 'One A record.' },
    ),
    {
      description:
        'A records of this view. A name appears once: the controller refuses a view with a name twice (Ready=False InvalidSpec, naming both entries) and leaves the served records as they were. Replaced whole by each write (an atomic list).',
      maxItems: 4096,
      // Atomic, not a map keyed by name: a map list's managed fields would list every record again in the stored
      // object (bench/controller/apply-cost.ts: 3–4× the apiserver's CPU per write at 1,400 records).
      'x-kubernetes-list-type': 'atomic',
    },
  );
}

/** HA mode's addresses, on spec.networkConfig: inside the CIDR, not its network/broadcast, not serverIP. */
function additionalAddressRules() {
  const r = refs('spec.networkConfig');
  const list = r('additionalServerIPs');
  return [
    eachIPInCidr(list, r('cidr')),
    eachIPNotNetworkOrBroadcast(list, r('cidr')),
    eachIPDiffers(list, r('serverIP')),
  ];
}

export const DnsServerSpec = Type.Object(
  {
    networkConfig: Type.Object(
      {
        ...childNetworkProperties('CoreDNS'),
        additionalServerIPs: Type.Optional(
          additionalServerIPs(
            'spec.networkConfig.additionalServerIPs',
            'HA mode: one more CoreDNS replica per address (0 to 3), each a single-replica Deployment on its own Multus static address, never on the node of another replica; all serve the same records. Each must lie inside cidr and differ from serverIP and each other.',
          ),
        ),
        dnsPort: Type.Optional(port('Port CoreDNS serves on.', 53)),
      },
      {
        description: 'The VLAN; clients inside cidr get the vlan view.',
        'x-kubernetes-validations': [...childNetworkRules(), ...additionalAddressRules()],
      },
    ),
    views: Type.Optional(
      Type.Object(
        {
          vlan: Type.Optional(
            Type.Object(
              { records: Type.Optional(dnsRecords()) },
              { description: 'Answers for clients whose source address is inside networkConfig.cidr.' },
            ),
          ),
          podNetwork: Type.Optional(
            Type.Object(
              { records: Type.Optional(dnsRecords()) },
              {
                description:
                  'Answers for every other client (pods through the Service). Empty: forward only.',
              },
            ),
          ),
        },
        { description: 'The two views. A name not in a view is forwarded to upstreams, in both views.' },
      ),
    ),
    upstreams: Type.Optional(
      Type.Array(
        Type.String({
          maxLength: 15,
          description: 'An IPv4 address or resolv.conf.',
          'x-kubernetes-validations': [ipv4OrLiteral('spec.upstreams', 'resolv.conf')],
        }),
        {
          description:
            'Where every other name is forwarded: IPv4 addresses, or "resolv.conf" for the node\'s resolvers. Empty: the server answers its records only and reports NoUpstream.',
          maxItems: 8,
        },
      ),
    ),
    image: Type.Optional(image('The CoreDNS image (upstream CoreDNS with the view plugin).')),
    reloadInterval: Type.Optional(
      Type.String({
        description:
          "No effect: the DNSServer pod's config-sync sidecar reloads CoreDNS on every change (SIGUSR1), so the Corefile has no reload poll. Still checked (at least 2s, the reload plugin's minimum) so that objects valid before stay valid.",
        default: '2s',
        maxLength: 8,
        pattern: '^[0-9]{1,4}(s|m)$',
        'x-kubernetes-validations': [
          {
            rule: "!self.matches('^[0-9]{1,4}(s|m)$') || duration(self) >= duration('2s')",
            message: "spec.reloadInterval must be at least 2s (the reload plugin's minimum)",
            check: (self: unknown) => {
              const m = typeof self === 'string' ? /^([0-9]{1,4})(s|m)$/.exec(self) : null;
              return m === null || Number(m[1]) * (m[2] === 'm' ? 60 : 1) >= 2;
            },
          },
        ],
      }),
    ),
    cacheTTL: Type.Optional(
      Type.String({
        description: 'Maximum TTL of the response cache (cache plugin); at least 1s.',
        default: '30s',
        maxLength: 8,
        pattern: '^[0-9]{1,5}(s|m|h)$',
        'x-kubernetes-validations': [
          {
            rule: "!self.matches('^[0-9]{1,5}(s|m|h)$') || duration(self) >= duration('1s')",
            message: 'spec.cacheTTL must be at least 1s',
            check: (self: unknown) =>
              typeof self !== 'string' || !/^[0-9]{1,5}(s|m|h)$/.test(self) || Number(self.slice(0, -1)) >= 1,
          },
        ],
      }),
    ),
  },
  { description: 'A split-horizon CoreDNS server on the VLAN.' },
);

export const DnsServerStatus = Type.Object(
  {
    conditions: conditions(
      'Ready (provisioned), Available (True when every CoreDNS replica is available; False names the addresses whose pod is not), and Forwarding (True/UpstreamsConfigured, or False/NoUpstream when other names cannot be forwarded).',
    ),
    observedGeneration,
    configMapName: Type.Optional(
      Type.String({ description: 'ConfigMap holding the Corefile and zone files.', maxLength: 253 }),
    ),
    deploymentName: Type.Optional(Type.String({ description: 'The CoreDNS workload.', maxLength: 253 })),
    serviceName: Type.Optional(
      Type.String({ description: 'The ClusterIP Service (UDP and TCP 53).', maxLength: 253 }),
    ),
    serviceClusterIP: Type.Optional(
      Type.String({ description: 'Its ClusterIP: give it to a DNS operator forwarder.', maxLength: 64 }),
    ),
    recordCount: Type.Optional(Type.Integer({ description: 'Records served, both views.', minimum: 0 })),
    replicas: Type.Optional(
      Type.Object(
        {
          total: Type.Integer({
            description: 'CoreDNS replicas declared: serverIP plus the additional addresses.',
            minimum: 0,
          }),
          available: Type.Integer({
            description: 'How many of them are rolled out and available.',
            minimum: 0,
          }),
        },
        {
          description: 'The CoreDNS replicas (resolvers): how many are declared and how many are available.',
        },
      ),
    ),
  },
  { description: 'Observed state.' },
);

export type DnsServerSpec = Static<typeof DnsServerSpec>;
export type DnsServerStatus = Static<typeof DnsServerStatus>;
