// ProxyServer: the complete routing table of one Envoy + oooi-xds workload (written by the Infra, or standalone).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { cidrV4ByPattern, dnsLabelByPattern, enumOf, hostnameByPattern, image, port, text } from './fields';
import { childNetworkProperties, childNetworkRules } from './child-network';
import { intsDistinct, refs } from './cel';
import { conditions, observedGeneration } from './status';
import { proxyHighAvailability, proxyServerHaRules } from './proxy-ha';

const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** A first octet of a unicast address outside 0/8 (this host) and 127/8 (loopback): 1–126 and 128–223. */
const firstOctet = '([1-9]|[1-9][0-9]|1[01][0-9]|12[0-6]|12[89]|1[3-9][0-9]|2[01][0-9]|22[0-3])';
const targetLabel = '[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?';
/** A host name's last label starts with a letter (a TLD or a Service name), so no resolver reads it as an address. */
const lastLabel = '[a-zA-Z]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?';
/**
 * A backend target: a unicast IPv4 address that is not the Envoy pod itself (0/8, 127/8, multicast and class E
 * refused), or a host name (a Service name in targetNamespace when it has no dot) whose last label starts with a
 * letter (`0x7f.1` is 127.0.0.1 to inet_aton).
 */
export const targetPattern = `^(${firstOctet}([.]${octet}){3}|(${targetLabel}[.])*${lastLabel})$`;

export const ProxyBackend = Type.Object(
  {
    // No CEL per backend: at 1,400 backends the per-item rules were a sixth of what the apiserver spent on a cold
    // start (a CPU profile of bench/controller at 1,000 attachments), on every write, status writes included. The
    // strings are checked by OpenAPI pattern; what a pattern cannot say (localhost, the proxy's own serverIP, source
    // ranges on an HTTP backend) oooi-xds refuses, as it refuses a name twice (@oooi/envoy's validateProxyServer).
    name: dnsLabelByPattern(
      'Unique backend name (a DNS label); names the Envoy filter chain and cluster of a backend that is not SNI-routed (an SNI-routed backend has one cluster per host name, named <port>/<host name>).',
      { minLength: 1 },
    ),
    hostname: hostnameByPattern(
      'Primary server name matched on the listener: the TLS SNI (protocol TCP) or the HTTP Host header (protocol HTTP); may be a "*." wildcard, or kubernetes for source-scoped aliases.',
    ),
    alternateHostnames: Type.Optional(
      Type.Array(hostnameByPattern('An extra server name (SNI, or Host for protocol HTTP).'), {
        description: 'Extra server names (SNI, or Host for protocol HTTP) routed to the same target.',
        maxItems: 16,
      }),
    ),
    port: port('Envoy listener port this backend is served on.'),
    targetService: text(
      "Target: a Service name in targetNamespace, or an IPv4 address or host name (apps VIPs). Never the Envoy pod itself: loopback (127.0.0.0/8) and 0.0.0.0/8 are refused at admission; localhost and the proxy's serverIP by oooi-xds (ConfigAccepted=False, naming the backend; the last good table keeps serving).",
      { minLength: 1, pattern: targetPattern },
    ),
    targetPort: port('Target port.'),
    targetNamespace: dnsLabelByPattern('Namespace of the target Service.', { minLength: 1 }),
    protocol: Type.Optional(
      enumOf(
        ['TCP', 'HTTP', 'UDP'] as const,
        'How the port carries it. TCP: TLS passed through, matched by SNI (and sourcePrefixRanges). HTTP: plain HTTP, matched by the Host header (any :port suffix ignored; no source ranges: oooi-xds refuses them), one virtual host per backend, an unknown Host answered 404 by Envoy. A port carries HTTP backends or TCP backends, never both. UDP is not served: a UDP backend is reported invalid on the status, not silently dropped.',
        'TCP',
      ),
    ),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        description: 'Upstream connect timeout in seconds.',
        minimum: 1,
        maximum: 3600,
        default: 30,
      }),
    ),
    sourcePrefixRanges: Type.Optional(
      Type.Array(cidrV4ByPattern('A client source range (IPv4 CIDR).'), {
        description:
          'Client source CIDRs this backend is restricted to (source-scoped aliases). Empty: any source. A routing selector, not authentication.',
        maxItems: 256,
      }),
    ),
  },
  {
    description:
      'One route on a listener port to a target: by SNI (and optionally source range) for TCP, by Host for HTTP.',
  },
);

export const ProxyServerSpec = Type.Object(
  {
    networkConfig: Type.Object(
      {
        ...childNetworkProperties('Envoy'),
        highAvailability: Type.Optional(proxyHighAvailability('spec.networkConfig.highAvailability')),
      },
      {
        description:
          'The VLAN Envoy listens on. With highAvailability, serverIP floats between two Envoy pods (VRRP).',
        'x-kubernetes-validations': [...childNetworkRules(), ...proxyServerHaRules()],
      },
    ),
    backends: Type.Optional(
      Type.Array(ProxyBackend, {
        description:
          'The complete routing table. May be empty: Envoy then runs with no routes. Replaced whole by each write (an atomic list: one writer owns the table). Backend names are unique: oooi-xds refuses a table with a name twice (ConfigAccepted=False, naming both entries) and keeps serving the last good one.',
        maxItems: 2048,
        // Atomic, not a map keyed by name: at 1,400 backends a map list's managed fields double what the apiserver
        // stores and decodes on every write, status writes included (bench/controller/apply-cost.ts: 2.5× the CPU).
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
    proxyImage: Type.Optional(image('The Envoy image.')),
    managerImage: Type.Optional(image('The oooi-xds sidecar image.')),
    port: Type.Optional(port('Main TLS listener port (the Service port named proxy).', 443)),
    xdsPort: Type.Optional(port('Loopback port of the xDS sidecar.', 18000)),
    adminPort: Type.Optional(port('Envoy admin port, bound to 127.0.0.1 inside the pod only.', 9901)),
    logLevel: Type.Optional(
      enumOf(['trace', 'debug', 'info', 'warning', 'error', 'critical'] as const, 'Envoy log level.', 'info'),
    ),
  },
  {
    description:
      'An Envoy on the VLAN (TLS passthrough by SNI, plain HTTP by Host), configured over xDS by its sidecar.',
    'x-kubernetes-validations': [intsDistinct(refs('spec')('xdsPort'), refs('spec')('adminPort'))],
  },
);

export const ProxyServerStatus = Type.Object(
  {
    conditions: conditions(
      'Ready (provisioned), Available (workload) from the controller; ConfigAccepted from oooi-xds.',
    ),
    observedGeneration,
    configMapName: Type.Optional(
      Type.String({ description: 'ConfigMap holding the Envoy bootstrap.', maxLength: 253 }),
    ),
    deploymentName: Type.Optional(Type.String({ description: 'The Envoy workload.', maxLength: 253 })),
    serviceName: Type.Optional(Type.String({ description: 'The ClusterIP Service.', maxLength: 253 })),
    serviceIP: Type.Optional(
      Type.String({ description: 'Its ClusterIP (what internalProxyService points at).', maxLength: 64 }),
    ),
    backendCount: Type.Optional(Type.Integer({ description: 'Backends in the spec.', minimum: 0 })),
    serverIPHolder: Type.Optional(
      Type.Object(
        {
          replicaIP: Type.String({ description: "That replica's own address (replicaIPs).", maxLength: 15 }),
          since: Type.Optional(Type.String({ description: 'When it took serverIP.', format: 'date-time' })),
        },
        {
          description:
            'HA mode: the replica that took serverIP last (written by its oooi-xds when the address comes to its pod).',
        },
      ),
    ),
    replicas: Type.Optional(
      Type.Object(
        {
          total: Type.Integer({
            description: 'Envoy pods declared: 1, or 2 with spec.networkConfig.highAvailability.',
            minimum: 0,
          }),
          available: Type.Integer({
            description: 'How many of them are rolled out and available.',
            minimum: 0,
          }),
        },
        { description: 'The Envoy pods: how many are declared and how many are available.' },
      ),
    ),
    xds: Type.Optional(
      Type.Object(
        {
          desiredVersion: Type.Optional(
            Type.String({
              description: 'Content hash of the configuration the sidecar serves.',
              maxLength: 128,
            }),
          ),
          ackedVersion: Type.Optional(
            Type.String({ description: 'Last version Envoy acknowledged.', maxLength: 128 }),
          ),
          ackedAt: Type.Optional(
            Type.String({ description: 'When it was acknowledged.', format: 'date-time' }),
          ),
          nackedVersion: Type.Optional(
            Type.String({ description: 'Last version Envoy rejected.', maxLength: 128 }),
          ),
          nackMessage: Type.Optional(Type.String({ description: "Envoy's error for it.", maxLength: 32768 })),
          nackedAt: Type.Optional(Type.String({ description: 'When it was rejected.', format: 'date-time' })),
        },
        { description: 'What Envoy accepted (written by oooi-xds).' },
      ),
    ),
  },
  { description: 'Observed state.' },
);

export type ProxyBackend = Static<typeof ProxyBackend>;
export type ProxyServerSpec = Static<typeof ProxyServerSpec>;
export type ProxyServerStatus = Static<typeof ProxyServerStatus>;
