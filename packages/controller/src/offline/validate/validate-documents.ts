// `oooi validate`'s core, pure: every problem in a set of documents, each naming its file, object and field —
// what the apiserver would refuse (validateObject: schema, defaults and the CEL rules' TS twins), what no single
// object can show (validateCross: HostedClusters of another namespace without a HostedClusterGrant, a wrong control-plane
// namespace, duplicate HostedClusters and domains, MetalLB ranges, a missing Infra), and
// what the controller would report on an Infra's Ready condition without any cluster state: an enabled component
// without its serverIP or range, an invalid internalProxyService, source addresses shared by two attachments
// (when NodePools and Machines are given), and addresses two Infras of the files claim on one VLAN; and for each
// DHCPServer, DNSServer and ProxyServer of the files, what its reconciler would report as InvalidSpec and, for a
// ProxyServer, what oooi-xds would refuse (a record or backend name twice: the apiserver admits it, the lists
// being atomic).
import { formatFieldError, validateCross } from '@oooi/api';
import type { CrossProblem, FieldError, OooiObject } from '@oooi/api';
import { validateProxyServer } from '@oooi/envoy';
import { planDhcpServer } from '../../dhcp';
import { planDnsServer } from '../../dns';
import { planProxyServer } from '../../proxy';
import { desiredInfraStatus, planInfra, plannedOutcome, Reason } from '../../infra';
import { builtinImages } from '../../workload/images';
import { neighboursIn, originKey, readDocuments } from '../render/input';
import type { Origins, RenderInput, SourceDocument } from '../render/input';

/** Ready reasons `validate` reports offline; the rest need the cluster (Services, children) to judge. */
const offlineReasons: ReadonlySet<string> = new Set([
  Reason.DHCPServerIPMissing,
  Reason.DHCPRangeMissing,
  Reason.DNSServerIPMissing,
  Reason.ProxyServerIPMissing,
  Reason.InternalProxyServiceInvalid,
  Reason.DuplicateSourceIP,
  Reason.AttachmentLimitExceeded,
  Reason.InfraAddressConflict,
]);

function crossLine(p: CrossProblem, origins: Origins): string {
  const [first, ...others] = p.objects.map((o) => ({
    ...o,
    file: origins.get(originKey(o.kind, o.namespace, o.name)) ?? '?',
  }));
  const also = others.map((o) => `${o.kind} ${o.namespace}/${o.name} ${o.field} in ${o.file}`);
  const head = first ? `${first.file}: ${first.kind} ${first.namespace}/${first.name}: ${first.field}: ` : '';
  return `${head}${p.reason}: ${p.message}${also.length > 0 ? ` (with ${also.join(', ')})` : ''}`;
}

function infraLines(input: RenderInput, origins: Origins): string[] {
  const out: string[] = [];
  for (const infra of input.infras) {
    const plan = planInfra({
      infra,
      attachments: input.attachments,
      grants: input.grants,
      neighbours: neighboursIn(input, infra),
      nodePools: input.nodePools,
      machines: input.machines,
      services: input.services,
      children: {},
      images: builtinImages,
    });
    const outcomes = {
      dhcp: plannedOutcome(plan.children.dhcp),
      dns: plannedOutcome(plan.children.dns),
      proxy: plannedOutcome(plan.children.proxy),
    };
    const ns = infra.metadata.namespace ?? 'default';
    const file = origins.get(originKey('Infra', ns, infra.metadata.name)) ?? '?';
    for (const p of desiredInfraStatus(plan, outcomes, {}).problems) {
      if (offlineReasons.has(p.reason))
        out.push(`${file}: Infra ${ns}/${infra.metadata.name}: ${p.reason}: ${p.message}`);
    }
  }
  return out;
}

/** What the DHCPServer, DNSServer and ProxyServer reconcilers (and oooi-xds) would refuse, one line per problem. */
function childLines(input: RenderInput, origins: Origins): string[] {
  const out: string[] = [];
  const report = (o: OooiObject, errors: readonly FieldError[]): void => {
    const ns = o.metadata.namespace ?? 'default';
    const file = origins.get(originKey(o.kind, ns, o.metadata.name)) ?? '?';
    for (const line of new Set(errors.map(formatFieldError)))
      out.push(`${file}: ${o.kind} ${ns}/${o.metadata.name}: ${line}`);
  };
  const errorsOf = (r: { ok: boolean; errors?: readonly FieldError[] }): readonly FieldError[] =>
    r.ok ? [] : (r.errors ?? []);
  for (const d of input.dhcpServers) report(d, errorsOf(planDhcpServer(d)));
  for (const d of input.dnsServers) report(d, errorsOf(planDnsServer(d)));
  for (const p of input.proxyServers)
    report(p, [...errorsOf(planProxyServer(p)), ...errorsOf(validateProxyServer(p.spec))]);
  return out;
}

/** Every problem, one line each; empty when the documents are fine. */
export function validateDocuments(docs: readonly SourceDocument[]): string[] {
  const { input, errors, origins } = readDocuments(docs);
  const objects: OooiObject[] = [
    ...input.infras,
    ...input.attachments,
    ...input.grants,
    ...input.dhcpServers,
    ...input.dnsServers,
    ...input.proxyServers,
  ];
  return [
    ...errors,
    ...validateCross(objects).map((p) => crossLine(p, origins)),
    ...infraLines(input, origins),
    ...childLines(input, origins),
  ];
}
