// The oooi-dhcp configuration file (config.json): what the server serves, as one JSON document. The
// controller renders it from a DHCPServer and puts it in a ConfigMap; `oooi-dhcp --config FILE` reads it and
// validates it with validateDhcpConfig before using it. Addresses are dotted quads, times are seconds.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

/** The format version this code reads and writes. A file with another version is refused. */
export const DHCP_CONFIG_VERSION = 1;

const ip = (description: string) => Type.String({ description, maxLength: 15 });
const seconds = (description: string, minimum: number, maximum: number) =>
  Type.Integer({ description, minimum, maximum });

export const DhcpClasslessRoute = Type.Object(
  {
    destination: Type.String({ description: 'Destination network, a.b.c.d/n.', maxLength: 18 }),
    router: ip('Next hop; 0.0.0.0 means on-link.'),
  },
  { additionalProperties: false, description: 'One classless static route (option 121, RFC 3442).' },
);

export const DhcpReservation = Type.Object(
  {
    mac: Type.Optional(
      Type.String({ description: 'Client hardware address, aa:bb:cc:dd:ee:ff.', maxLength: 17 }),
    ),
    clientId: Type.Optional(
      Type.String({
        description: 'Client identifier (option 61) as hex, e.g. 01aabbccddeeff.',
        maxLength: 510,
      }),
    ),
    ip: ip('The address this client always gets; inside network.cidr, may lie outside the pool.'),
    hostname: Type.Optional(
      Type.String({ description: 'Host name option (12) for this client.', maxLength: 63 }),
    ),
  },
  { additionalProperties: false, description: 'A static reservation: matched by clientId, else by mac.' },
);

export const DhcpKubevirt = Type.Object(
  {
    namespaces: Type.Array(Type.String({ maxLength: 63 }), {
      description:
        'Namespaces whose VirtualMachineInstances and VirtualMachines the server reads; only these are watched.',
      minItems: 1,
      maxItems: 256,
    }),
    networkName: Type.String({
      description:
        'The network that identifies the VLAN interface on a VMI: a NetworkAttachmentDefinition "namespace/name" or "name", matched against spec.networks[].multus.networkName.',
      maxLength: 253,
    }),
    unknownClients: Type.Union([Type.Literal('serve'), Type.Literal('refuse')], {
      description:
        'A client whose hardware address no VMI reports on the network: served from the pool, or sent no reply.',
    }),
    releaseGraceSeconds: seconds(
      'Once a VMI with no owning VirtualMachine is deleted, its lease is released after this long.',
      0,
      86_400,
    ),
  },
  {
    additionalProperties: false,
    description: 'KubeVirt awareness: addresses and host names from VirtualMachineInstances.',
  },
);

export const DhcpStatusTarget = Type.Object(
  {
    namespace: Type.String({ maxLength: 63 }),
    name: Type.String({ maxLength: 253 }),
  },
  {
    additionalProperties: false,
    description:
      'The DHCPServer whose status this server writes (lease counts, conditions); absent: no report.',
  },
);

export const DhcpHighAvailability = Type.Object(
  {
    role: Type.Union([Type.Literal('primary'), Type.Literal('standby')], {
      description:
        'This server’s role in the hot-standby pair: the primary serves while it is alive; the standby serves only once the primary is unreachable and clients go unanswered.',
    }),
    partner: Type.Object(
      {
        address: ip('The partner’s address on the served network (its network.serverIP).'),
        port: Type.Integer({
          description: 'The partner’s replication port (TCP).',
          minimum: 1,
          maximum: 65535,
        }),
      },
      { additionalProperties: false },
    ),
    listenPort: Type.Optional(
      Type.Integer({
        description:
          'The TCP port this server takes replication on, at network.serverIP; default partner.port.',
        minimum: 1,
        maximum: 65535,
      }),
    ),
    secretFile: Type.String({
      description:
        'Absolute path of the file holding the pair’s shared secret (at least 32 bytes); every message between the two is authenticated with it.',
      maxLength: 4096,
    }),
    heartbeatMs: Type.Optional(
      Type.Integer({
        description: 'Interval of the heartbeats; default 1000.',
        minimum: 100,
        maximum: 60_000,
      }),
    ),
    maxResponseDelayMs: Type.Optional(
      Type.Integer({
        description:
          'How long the partner may stay unreachable before this server considers it down; default 3000.',
        minimum: 200,
        maximum: 600_000,
      }),
    ),
    maxAckDelayMs: Type.Optional(
      Type.Integer({
        description:
          'A client is unanswered once it has retried for this long (or its secs field says so); default 2000.',
        minimum: 100,
        maximum: 600_000,
      }),
    ),
    maxUnackedClients: Type.Optional(
      Type.Integer({
        description:
          'The standby takes over once more than this many clients go unanswered while the primary is unreachable; default 0 (one client is enough).',
        minimum: 0,
        maximum: 1000,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A hot-standby pair: every lease is durable on both servers before the ACK; the standby takes over when the primary is gone.',
  },
);

export const DhcpConfig = Type.Object(
  {
    version: Type.Literal(DHCP_CONFIG_VERSION, { description: 'Format version of this file.' }),
    network: Type.Object(
      {
        cidr: Type.String({ description: 'The one network served, a.b.c.d/n (n ≤ 30).', maxLength: 18 }),
        gateway: ip('Router handed to clients (option 3); never offered.'),
        serverIP: ip('This server’s address on the network (option 54, the send socket); never offered.'),
      },
      { additionalProperties: false },
    ),
    pool: Type.Object(
      { start: ip('First address of the inclusive pool.'), end: ip('Last address of the inclusive pool.') },
      { additionalProperties: false },
    ),
    leaseTimeSeconds: seconds('Lease time (option 51).', 60, 31_536_000),
    renewalTimeSeconds: Type.Optional(seconds('T1 (option 58); default half the lease time.', 1, 31_536_000)),
    rebindingTimeSeconds: Type.Optional(
      seconds('T2 (option 59); default 7/8 of the lease time.', 1, 31_536_000),
    ),
    declineQuarantineSeconds: seconds('How long a DECLINEd address is kept out of the pool.', 0, 31_536_000),
    options: Type.Object(
      {
        dnsServers: Type.Array(ip('A resolver.'), {
          description: 'Option 6: every resolver, in order.',
          maxItems: 16,
        }),
        domainName: Type.Optional(Type.String({ description: 'Option 15.', maxLength: 253 })),
        searchList: Type.Optional(
          Type.Array(Type.String({ maxLength: 253 }), {
            description: 'Option 119 (RFC 3397).',
            maxItems: 32,
          }),
        ),
        mtu: Type.Optional(Type.Integer({ description: 'Option 26.', minimum: 68, maximum: 65535 })),
        classlessRoutes: Type.Optional(
          Type.Array(DhcpClasslessRoute, { description: 'Option 121 (RFC 3442).', maxItems: 32 }),
        ),
        ntpServers: Type.Optional(
          Type.Array(ip('An NTP server.'), { description: 'Option 42.', maxItems: 16 }),
        ),
      },
      { additionalProperties: false },
    ),
    excluded: Type.Optional(
      Type.Array(Type.String({ maxLength: 31 }), {
        description: 'Addresses never offered: a.b.c.d, a.b.c.d-e.f.g.h (inclusive) or a.b.c.d/n.',
        maxItems: 256,
      }),
    ),
    reservations: Type.Optional(Type.Array(DhcpReservation, { maxItems: 65_536 })),
    kubevirt: Type.Optional(DhcpKubevirt),
    status: Type.Optional(DhcpStatusTarget),
    ha: Type.Optional(DhcpHighAvailability),
  },
  { additionalProperties: false, description: 'oooi-dhcp configuration file.' },
);

export type DhcpConfig = Static<typeof DhcpConfig>;
export type DhcpReservation = Static<typeof DhcpReservation>;
export type DhcpKubevirt = Static<typeof DhcpKubevirt>;
export type DhcpStatusTarget = Static<typeof DhcpStatusTarget>;
export type DhcpHighAvailability = Static<typeof DhcpHighAvailability>;
export type DhcpClasslessRoute = Static<typeof DhcpClasslessRoute>;
