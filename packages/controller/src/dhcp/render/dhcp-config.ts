// From a DHCPServer to oooi-dhcp's config.json: exactly the DhcpConfig type of @oooi/api, checked with its own
// validator (validateDhcpConfig) before it is returned, so the controller never writes a file the server would
// refuse. Every CR string that reaches the file passes the one gate (../../workload/generated-text) first; every
// problem comes back with the DHCPServer field it came from. The text is byte-stable: fixed key order, two-space
// indent, one trailing newline.
import { applyDefaults, DHCP_CONFIG_VERSION, kindInfo, parseGoDuration, validateDhcpConfig } from '@oooi/api';
import type { DHCPServer, DhcpConfig, DhcpServerSpec, FieldError, ValidationResult } from '@oooi/api';
import { generatedWordProblem, word } from '../../workload/generated-text';
import { namespaceOf } from '../../workload/meta';
import { poolSizeOf } from './pool-size';
import { pairConfig } from './dhcp-ha-config';

/** The ConfigMap key and the file name under `oooi render`'s `dhcp/<namespace>-<name>/`. */
export const CONFIG_KEY = 'config.json';
/** How long a DECLINEd address stays out of the pool (RFC 2131 §3.1.5 leaves it to the server). */
export const DECLINE_QUARANTINE_SECONDS = 300;

export interface RenderedDhcpConfig {
  readonly config: DhcpConfig;
  /** config.json as written (the ConfigMap's value). */
  readonly text: string;
  /** Addresses the pool can hand out: the pool minus excluded, gateway and server addresses. */
  readonly poolSize: number;
  /** The namespaces whose VMIs oooi-dhcp reads, each once, in the spec's order. */
  readonly vmiNamespaces: readonly string[];
  /** With spec.networkConfig.standbyServerIP: the standby's config (`config`/`text` are then the primary's). */
  readonly standby?: { readonly config: DhcpConfig; readonly text: string };
}

/** The DHCPServer's spec with the CRD defaults applied (as the apiserver stores it). */
export function defaultedDhcpSpec(dhcp: DHCPServer): DhcpServerSpec {
  return applyDefaults<DhcpServerSpec>(kindInfo('DHCPServer')!.spec, dhcp.spec);
}

/** `namespace/name` of the VMI network: the spec's, else the NetworkAttachmentDefinition the pod attaches to. */
export function vmiNetworkName(dhcp: DHCPServer, spec: DhcpServerSpec): string {
  const net = spec.networkConfig;
  return (
    spec.kubevirt?.networkName ||
    `${net.networkAttachmentNamespace || namespaceOf(dhcp)}/${net.networkAttachmentName}`
  );
}

/** Every CR string written into config.json, with the field it comes from. */
function words(dhcp: DHCPServer, spec: DhcpServerSpec): [string, unknown][] {
  const net = spec.networkConfig;
  const lease = spec.leaseConfig;
  const o = spec.options ?? {};
  const list = (path: string, items: readonly unknown[] | undefined): [string, unknown][] =>
    (items ?? []).map((v, i) => [`${path}[${i}]`, v]);
  return [
    ['metadata.name', dhcp.metadata.name],
    ['metadata.namespace', namespaceOf(dhcp)],
    ['spec.networkConfig.cidr', net.cidr],
    ['spec.networkConfig.gateway', net.gateway],
    ['spec.networkConfig.serverIP', net.serverIP],
    ...(net.standbyServerIP !== undefined
      ? [['spec.networkConfig.standbyServerIP', net.standbyServerIP] as [string, unknown]]
      : []),
    ['spec.networkConfig.networkAttachmentName', net.networkAttachmentName],
    ...(net.networkAttachmentNamespace
      ? [
          ['spec.networkConfig.networkAttachmentNamespace', net.networkAttachmentNamespace] as [
            string,
            unknown,
          ],
        ]
      : []),
    ...list('spec.networkConfig.dnsServers', net.dnsServers),
    ['spec.leaseConfig.rangeStart', lease.rangeStart],
    ['spec.leaseConfig.rangeEnd', lease.rangeEnd],
    ...list('spec.leaseConfig.excluded', lease.excluded),
    ...(o.domainName !== undefined ? [['spec.options.domainName', o.domainName] as [string, unknown]] : []),
    ...list('spec.options.searchList', o.searchList),
    ...(o.classlessRoutes ?? []).flatMap((r, i): [string, unknown][] => [
      [`spec.options.classlessRoutes[${i}].destination`, r.destination],
      [`spec.options.classlessRoutes[${i}].router`, r.router],
    ]),
    ...list('spec.options.ntpServers', o.ntpServers),
    ...list('spec.kubevirt.namespaces', spec.kubevirt?.namespaces),
    ...(spec.kubevirt?.networkName
      ? [['spec.kubevirt.networkName', spec.kubevirt.networkName] as [string, unknown]]
      : []),
  ];
}

function seconds(text: string | undefined, fallback: string): number {
  return Math.floor((parseGoDuration(text || fallback) ?? 0) / 1000);
}

/** The namespaces, each once (first occurrence kept), with the spec index each came from. */
function uniqueNamespaces(list: readonly string[] | undefined): { names: string[]; from: number[] } {
  const names: string[] = [];
  const from: number[] = [];
  (list ?? []).forEach((n, i) => {
    if (names.includes(n)) return;
    names.push(n);
    from.push(i);
  });
  return { names, from };
}

function buildConfig(dhcp: DHCPServer, spec: DhcpServerSpec, namespaces: readonly string[]): DhcpConfig {
  const net = spec.networkConfig;
  const o = spec.options ?? {};
  const kv = spec.kubevirt;
  const config: DhcpConfig = {
    version: DHCP_CONFIG_VERSION,
    network: { cidr: word(net.cidr), gateway: word(net.gateway), serverIP: word(net.serverIP) },
    pool: { start: word(spec.leaseConfig.rangeStart), end: word(spec.leaseConfig.rangeEnd) },
    leaseTimeSeconds: seconds(spec.leaseConfig.leaseTime, '1h'),
    declineQuarantineSeconds: DECLINE_QUARANTINE_SECONDS,
    options: {
      dnsServers: (net.dnsServers ?? []).map((s) => word(s)),
      ...(o.domainName !== undefined ? { domainName: word(o.domainName) } : {}),
      ...(o.searchList?.length ? { searchList: o.searchList.map((s) => word(s)) } : {}),
      ...(o.mtu !== undefined ? { mtu: o.mtu } : {}),
      ...(o.classlessRoutes?.length
        ? {
            classlessRoutes: o.classlessRoutes.map((r) => ({
              destination: word(r.destination),
              router: word(r.router),
            })),
          }
        : {}),
      ...(o.ntpServers?.length ? { ntpServers: o.ntpServers.map((s) => word(s)) } : {}),
    },
    ...(spec.leaseConfig.excluded?.length ? { excluded: spec.leaseConfig.excluded.map((e) => word(e)) } : {}),
  };
  // Without a namespace to read there is no KubeVirt awareness: every client is served from the pool.
  if (kv && namespaces.length > 0) {
    config.kubevirt = {
      namespaces: namespaces.map((n) => word(n)),
      networkName: word(vmiNetworkName(dhcp, spec)),
      unknownClients: kv.unknownClients ?? 'serve',
      releaseGraceSeconds: seconds(kv.releaseGrace, '5m'),
    };
  }
  config.status = { namespace: word(namespaceOf(dhcp)), name: word(dhcp.metadata.name) };
  return config;
}

/** A config.json path back to the DHCPServer field it was rendered from. */
function specPath(path: string, namespaceFrom: readonly number[]): string {
  const ns = /^kubevirt\.namespaces\[(\d+)\]/.exec(path);
  if (ns) return `spec.kubevirt.namespaces[${namespaceFrom[Number(ns[1])] ?? ns[1]}]`;
  const table: [string, string][] = [
    ['network.cidr', 'spec.networkConfig.cidr'],
    ['network.gateway', 'spec.networkConfig.gateway'],
    ['network.serverIP', 'spec.networkConfig.serverIP'],
    ['pool.start', 'spec.leaseConfig.rangeStart'],
    ['pool.end', 'spec.leaseConfig.rangeEnd'],
    ['leaseTimeSeconds', 'spec.leaseConfig.leaseTime'],
    ['options.dnsServers', 'spec.networkConfig.dnsServers'],
    ['options.', 'spec.options.'],
    ['excluded', 'spec.leaseConfig.excluded'],
    ['kubevirt.networkName', 'spec.kubevirt.networkName'],
    ['kubevirt.releaseGraceSeconds', 'spec.kubevirt.releaseGrace'],
    ['kubevirt', 'spec.kubevirt'],
    ['ha.partner.address', 'spec.networkConfig.standbyServerIP'],
    ['status.namespace', 'metadata.namespace'],
    ['status.name', 'metadata.name'],
  ];
  const hit = table.find(([from]) => path.startsWith(from));
  return hit ? hit[1] + path.slice(hit[0].length) : `config.json ${path}`;
}

/** config.json for DHCP (its CRD defaults applied first), or every problem with its DHCPServer field path. */
export function renderDhcpConfig(dhcp: DHCPServer): ValidationResult<RenderedDhcpConfig> {
  const spec = defaultedDhcpSpec(dhcp);
  const gate: FieldError[] = words(dhcp, spec).flatMap(([path, value]) => {
    const problem = generatedWordProblem(value);
    return problem ? [{ path, message: problem }] : [];
  });
  if (gate.length > 0) return { ok: false, errors: gate };
  const { names, from } = uniqueNamespaces(spec.kubevirt?.namespaces);
  const single = buildConfig(dhcp, spec, names);
  const standbyIP = spec.networkConfig.standbyServerIP;
  const pair = standbyIP ? { primary: single.network.serverIP, standby: word(standbyIP) } : undefined;
  const config = pair ? pairConfig(single, 'primary', pair) : single;
  const standby = pair ? pairConfig(single, 'standby', pair) : undefined;
  const checked = [config, ...(standby ? [standby] : [])].map((c) => validateDhcpConfig(c));
  const errors = checked.flatMap((c) => (c.ok ? [] : c.errors));
  if (errors.length > 0) {
    const paths = errors.map((e) => ({ path: specPath(e.path, from), message: e.message }));
    return {
      ok: false,
      errors: paths.filter(
        (e, i) => paths.findIndex((x) => x.path === e.path && x.message === e.message) === i,
      ),
    };
  }
  return {
    ok: true,
    value: {
      config,
      text: configText(config),
      poolSize: poolSizeOf(single),
      vmiNamespaces: config.kubevirt?.namespaces ?? [],
      ...(standby ? { standby: { config: standby, text: configText(standby) } } : {}),
    },
  };
}

/** The byte-stable text of a config: fixed key order, two-space indent, one trailing newline. */
function configText(config: DhcpConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}
