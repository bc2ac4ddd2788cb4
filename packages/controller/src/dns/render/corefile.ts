// The Corefile: two server blocks on the same zone and port. CoreDNS tries blocks for one zone and port top to
// bottom and the first whose `view` expression matches answers (plugin/view README, "Server Block Ordering"),
// so the filtered VLAN block comes first and the unfiltered pod-network block last; neither shadows the other.
// Both blocks have the same (empty) bind list, i.e. every address of the pod.
//
// Why `file` zones and two blocks (measured on the rig, and bench/dns): one table per view in few
// blocks serves as fast as a trivial Corefile, while one block per cluster domain costs 2x memory and 16x reload
// time; `hosts` wildcards match one label only and `hosts` reads /etc/hosts as well; `template` needs one regex per
// name. Each zone file's serial (a content hash) is also written into the block's `nsid`, so any record change
// changes the Corefile itself, and `dig +nsid` tells which version answered. No `reload` plugin: the pod's
// config-sync sidecar sends SIGUSR1 after each change (README, "How a change reaches running CoreDNS"), which
// builds a new server with fresh caches from the files on disk; the plugin's poll (2 s minimum) would be slower,
// and after one SIGUSR1 the plugin never applies a change again (CoreDNS 1.14.7), so the two never meet.
import type { DnsModel, DnsView } from './dns-model';
import { word } from '../../workload/generated-text';
import { viewSerial, type ZoneFile } from './zone-file';

/** Ports of the process-wide endpoints (fixed; the Deployment's probes and ports use the same numbers). */
export const HEALTH_PORT = 8080;
export const READY_PORT = 8181;
export const METRICS_PORT = 9153;
/** The environment variable holding the pod IP in the CoreDNS container. */
export const POD_IP_ENV = 'POD_IP';
/** How long CoreDNS keeps answering after SIGTERM while /health reports it going away. */
export const LAMEDUCK = '5s';

type Lines = string[];

/** Every CR string below passes the one gate (../../workload/generated-text): it cannot end a line or a block. */
const ident = (model: DnsModel): string =>
  `${word(model.namespace, 'metadata.namespace')}/${word(model.name, 'metadata.name')}`;
const upstreamWords = (model: DnsModel): string =>
  model.upstreams.map((u) => word(u, 'spec.upstreams')).join(' ');

function block(head: string, body: Lines, indent = '    '): Lines {
  return [`${head} {`, ...body.map((l) => `${indent}${l}`), '}'];
}

/**
 * The VLAN view's expression for the canonical CIDR `a.b.c.d/n`. CoreDNS evaluates it for every query (from both
 * views), and `incidr` parses the client address and the CIDR each time: bench/dns measured the generated
 * Corefile at 0.84–0.89 of a trivial one with it, above 1.0 with a string prefix test. So a prefix on an octet
 * boundary is a string prefix of the client address (`198.51.100.`; CoreDNS writes IPv4 clients dotted, also on
 * a dual-stack socket); any other prefix keeps `incidr`, behind the covering octet prefix, so that clients outside
 * it (the pod network) are turned away by the string test alone.
 */
export function vlanViewExpression(cidr: string): string {
  const [address = '', length = ''] = cidr.split('/');
  const n = Number(length);
  const octets = address.split('.').slice(0, Math.floor(n / 8));
  const prefix = octets.length > 0 ? `client_ip() startsWith '${octets.join('.')}.'` : '';
  const exact = `incidr(client_ip(), '${cidr}')`;
  if (n % 8 === 0 && prefix) return prefix;
  return prefix ? `${prefix} && ${exact}` : exact;
}

function viewFilter(model: DnsModel, view: DnsView): Lines {
  if (view.name !== 'vlan') return [];
  return block('view vlan', [`expr ${vlanViewExpression(word(model.cidr, 'the CIDR'))}`]);
}

function answers(view: DnsView, zone: ZoneFile | undefined, model: DnsModel): Lines {
  const nsid = [`nsid oooi ${ident(model)} ${view.name} ${viewSerial(view)}`];
  if (!zone) return nsid;
  return [...nsid, ...block(`file ${zone.fileName} .`, ['reload 0', 'fallthrough'])];
}

function forwarding(model: DnsModel): Lines {
  if (model.upstreams.length === 0) {
    // No upstream: names outside the records end the chain (SERVFAIL); errors are logged once per 5 minutes.
    return block('errors', ['consolidate 5m ".* no next plugin found"']);
  }
  return [...block(`forward . ${upstreamWords(model)}`, ['policy sequential']), 'errors'];
}

/**
 * The metrics, health and ready endpoints bind the pod IP only, never the VLAN address (the kubelet probes the pod
 * IP): `{$POD_IP}` is CoreDNS's environment substitution (the container sets POD_IP from status.podIP); unset, as
 * off a cluster, it is empty (every address).
 */
const POD_IP = `{$${POD_IP_ENV}}`;
export const METRICS_ADDRESS = `${POD_IP}:${METRICS_PORT}`;

function endpoints(first: boolean): Lines {
  if (!first) return [`prometheus ${METRICS_ADDRESS}`];
  return [
    ...block(`health ${POD_IP}:${HEALTH_PORT}`, [`lameduck ${LAMEDUCK}`]),
    `ready ${POD_IP}:${READY_PORT}`,
    `prometheus ${METRICS_ADDRESS}`,
  ];
}

function serverBlock(model: DnsModel, view: DnsView, zone: ZoneFile | undefined): Lines {
  const first = view.name === 'vlan';
  return block(`.:${model.port}`, [
    ...viewFilter(model, view),
    ...answers(view, zone, model),
    ...forwarding(model),
    `cache ${model.cacheSeconds}`,
    ...endpoints(first),
    'loop',
  ]);
}

function header(model: DnsModel, zones: readonly (ZoneFile | undefined)[]): Lines {
  const [vlan, pod] = model.views;
  const count = (v: DnsView, z: ZoneFile | undefined): string =>
    z ? `${v.records.length} records in ${z.fileName}` : 'no records, forwards only';
  const upstream =
    model.upstreams.length > 0
      ? `Names outside a view's records are forwarded to: ${upstreamWords(model)}`
      : 'No upstream (spec.upstreams is empty): names outside the records get SERVFAIL.';
  return [
    `# Generated by oooi from DNSServer ${ident(model)}. Do not edit: the controller rewrites it.`,
    '# Blocks for one zone and port are tried top to bottom; the first whose view matches answers.',
    `#   vlan         clients in ${word(model.cidr, 'the CIDR')}: ${count(vlan, zones[0])}`,
    `#   pod-network  every other client (listed last, no filter): ${count(pod, zones[1])}`,
    `# ${upstream}`,
    '# `dig +nsid` shows which view and which version of its records answered.',
  ];
}

/** Renders the Corefile for MODEL whose views' zone files are ZONES (same order as model.views). */
export function renderCorefile(
  model: DnsModel,
  zones: readonly [ZoneFile | undefined, ZoneFile | undefined],
): string {
  const lines = [
    ...header(model, zones),
    ...serverBlock(model, model.views[0], zones[0]),
    ...serverBlock(model, model.views[1], zones[1]),
  ];
  return `${lines.join('\n')}\n`;
}
