// Reading one VirtualMachineInstance (kubevirt.io/v1) for the served network: which interface is attached to it,
// that interface's MAC and reported IPv4 addresses, the host name, and the owning VirtualMachine. Objects come from
// the API server and are treated as untrusted: every field is checked for its type, nothing here throws.
//
// The link (kubevirt staging/src/kubevirt.io/api/core/v1/types.go): spec.networks[i] { name, multus.networkName }
// names an interface spec.domain.devices.interfaces[j] { name, macAddress } and a status entry
// status.interfaces[k] { name, mac, ipAddress, ipAddresses, interfaceName } by the same `name`.
import { parseIPv4 } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';

export interface VmiSpecPart {
  hostname?: unknown;
  networks?: unknown;
  domain?: { devices?: { interfaces?: unknown } };
}

export interface VmiObject extends KubeObject {
  spec?: VmiSpecPart;
  status?: { interfaces?: unknown };
}

export interface VmObject extends KubeObject {
  spec?: { template?: { spec?: VmiSpecPart } };
}

/** The configured network: `namespace/name` of a NetworkAttachmentDefinition, or a bare `name`. */
export interface NetworkRef {
  readonly namespace?: string;
  readonly name: string;
}

export function parseNetworkName(text: string): NetworkRef {
  const slash = text.indexOf('/');
  return slash < 0 ? { name: text } : { namespace: text.slice(0, slash), name: text.slice(slash + 1) };
}

/**
 * Whether a VMI's multus.networkName (in namespace NS) is the configured network. A bare name on the VMI means
 * its own namespace (as Multus reads it); a bare configured name matches that name in any namespace.
 */
export function networkMatches(want: NetworkRef, vmiNamespace: string, networkName: string): boolean {
  const got = parseNetworkName(networkName);
  return (
    got.name === want.name &&
    (want.namespace === undefined || want.namespace === (got.namespace ?? vmiNamespace))
  );
}

/** What a VMI says about the served network. */
export interface VmiReport {
  /** namespace/name */
  readonly vmi: string;
  readonly uid: string;
  readonly createdAt: string;
  /** aa:bb:cc:dd:ee:ff, lower case. */
  readonly mac: string;
  /** IPv4 addresses the interface reports, ipAddress first, then ipAddresses, without repeats. */
  readonly ips: readonly number[];
  readonly hostname?: string;
  /** The controlling VirtualMachine's uid. */
  readonly ownerUid?: string;
}

export type VmiReading =
  | { readonly kind: 'report'; readonly report: VmiReport; readonly badHostname?: string }
  /** Not attached to the network, or no MAC known yet (not scheduled). */
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly vmi: string; readonly reason: 'bad_mac'; readonly detail: string };

const macRe = /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/;
const labelRe = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/i;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

/** The name of the VMI-spec network attached to NET, if any. */
export function attachedNetwork(
  spec: VmiSpecPart | undefined,
  namespace: string,
  net: NetworkRef,
): string | undefined {
  for (const n of list(spec?.networks)) {
    const multus = n.multus as Record<string, unknown> | undefined;
    const nad = str(multus?.networkName);
    const name = str(n.name);
    if (nad !== undefined && name !== undefined && networkMatches(net, namespace, nad)) return name;
  }
  return undefined;
}

/** The MAC a spec pins on interface NAME (spec.domain.devices.interfaces[].macAddress), as written. */
export function specMac(spec: VmiSpecPart | undefined, name: string): string | undefined {
  return str(list(spec?.domain?.devices?.interfaces).find((i) => i.name === name)?.macAddress);
}

export function normalizeMac(text: string): string | undefined {
  const m = text.trim().toLowerCase();
  return macRe.test(m) ? m.replace(/-/g, ':') : undefined;
}

function reportedIps(entry: Record<string, unknown> | undefined): number[] {
  const texts = [str(entry?.ipAddress)];
  if (Array.isArray(entry?.ipAddresses)) texts.push(...entry.ipAddresses.map(str));
  const out: number[] = [];
  for (const t of texts) {
    const v = t === undefined ? undefined : parseIPv4(t.split('/')[0]!);
    if (v !== undefined && !out.includes(v)) out.push(v);
  }
  return out;
}

export function readVmi(vmi: VmiObject, net: NetworkRef): VmiReading {
  const namespace = vmi.metadata?.namespace ?? '';
  const key = `${namespace}/${vmi.metadata?.name ?? ''}`;
  const iface = attachedNetwork(vmi.spec, namespace, net);
  if (iface === undefined) return { kind: 'none' };
  const wanted = specMac(vmi.spec, iface);
  const statuses = list(vmi.status?.interfaces);
  const entry =
    statuses.find((s) => s.name === iface) ??
    (wanted !== undefined
      ? statuses.find((s) => normalizeMac(str(s.mac) ?? '') === normalizeMac(wanted))
      : undefined);
  const macText = str(entry?.mac) ?? wanted;
  if (macText === undefined) return { kind: 'none' };
  const mac = normalizeMac(macText);
  if (mac === undefined)
    return { kind: 'invalid', vmi: key, reason: 'bad_mac', detail: macText.slice(0, 64) };
  const hostText = str(vmi.spec?.hostname) ?? vmi.metadata?.name ?? '';
  const hostOk = labelRe.test(hostText);
  const owner = vmi.metadata?.ownerReferences?.find(
    (o) => o.controller === true && o.kind === 'VirtualMachine',
  );
  const report: VmiReport = {
    vmi: key,
    uid: vmi.metadata?.uid ?? key,
    createdAt: vmi.metadata?.creationTimestamp ?? '',
    mac,
    ips: reportedIps(entry),
    ...(hostOk ? { hostname: hostText } : {}),
    ...(owner !== undefined && owner.apiVersion.startsWith('kubevirt.io/') ? { ownerUid: owner.uid } : {}),
  };
  return { kind: 'report', report, ...(hostOk ? {} : { badHostname: hostText.slice(0, 64) }) };
}

/** The MAC a VirtualMachine's template pins on the network's interface, if it pins one. */
export function vmTemplateMac(vm: VmObject, net: NetworkRef): string | undefined {
  const spec = vm.spec?.template?.spec;
  const iface = attachedNetwork(spec, vm.metadata?.namespace ?? '', net);
  const text = iface !== undefined ? specMac(spec, iface) : undefined;
  return text !== undefined ? normalizeMac(text) : undefined;
}
