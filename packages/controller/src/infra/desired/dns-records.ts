// The complete record set of both DNS views, exactly the reference's table:
//
// | name(s)                                              | VLAN view         | pod-network view          |
// | api / api-int / oauth / ignition / konnectivity .<d> | proxy.serverIP    | internalProxyService IP   |
// | *.apps.<d> (apps ingress Ready with an externalIP)   | MetalLB externalIP| internalProxyService IP   |
// | kubernetes, kubernetes.default, .svc, .svc.cluster.local (a worker source range is known)               |
// |                                                      | proxy.serverIP    | internalProxyService IP   |
//
// The pod-network view answers only when internalProxyService is set (and resolves); otherwise it is empty and
// every name is forwarded. Records are grouped per attachment in name order, the kubernetes names last; a name
// appears once per view. Without proxy.serverIP the VLAN view keeps only the *.apps answers.
import type { MemberView } from '../aggregate/aggregate-infra';

export interface DnsRecord {
  readonly name: string;
  readonly ip: string;
}

export interface DnsViews {
  readonly vlan: readonly DnsRecord[];
  readonly podNetwork: readonly DnsRecord[];
}

export const controlPlaneLabels = ['api', 'api-int', 'oauth', 'ignition', 'konnectivity'] as const;
export const kubernetesNames = [
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
] as const;

export interface RecordInputs {
  readonly views: readonly MemberView[];
  /** proxy.serverIP; without it the VLAN view has no control-plane answers. */
  readonly proxyIP: string | undefined;
  /** The resolved internalProxyService address; without it the pod-network view is empty. */
  readonly internalIP: string | undefined;
}

/**
 * One view's records. `controlPlaneIP` answers the control-plane and kubernetes names (none without it);
 * `*.apps` answers with the MetalLB externalIP in the VLAN view and with `controlPlaneIP` in the pod view.
 */
function viewRecords(
  views: readonly MemberView[],
  controlPlaneIP: string | undefined,
  pod: boolean,
): DnsRecord[] {
  const out: DnsRecord[] = [];
  for (const v of views) {
    if (controlPlaneIP !== undefined) {
      for (const label of controlPlaneLabels)
        out.push({ name: `${label}.${v.target.domain}`, ip: controlPlaneIP });
    }
    const appsIP = pod ? controlPlaneIP : v.apps?.dnsIP;
    if (v.apps?.dnsIP !== undefined && appsIP !== undefined)
      out.push({ name: `*.apps.${v.target.domain}`, ip: appsIP });
  }
  if (controlPlaneIP !== undefined && views.some((v) => v.sourceRanges.length > 0)) {
    for (const name of kubernetesNames) out.push({ name, ip: controlPlaneIP });
  }
  return dedupe(out);
}

function dedupe(records: readonly DnsRecord[]): DnsRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => !seen.has(r.name) && seen.add(r.name) !== undefined);
}

export function dnsRecords(input: RecordInputs): DnsViews {
  return {
    vlan: viewRecords(input.views, input.proxyIP, false),
    podNetwork: input.internalIP === undefined ? [] : viewRecords(input.views, input.internalIP, true),
  };
}
