// `oooi render`'s core, pure: the render input (files already parsed and checked) plus a clock reading become the
// files the controller's decisions amount to — one YAML file per object the controller would create or update,
// named `<kind>-<namespace>-<name>.yaml` (kind in lower case), and `status.yaml`, the status it would write on every
// Infra and attachment, sorted by kind, namespace and name. The same planInfra the reconcilers call decides, and
// the same desiredExternalService the attachment reconciler calls decides each attachment's
// `<attachment>-proxy-external` Service (its target port from the ProxyServer the controller would serve; its
// status block `externalServiceStatus` names it — the load balancer's address is the cluster's to know). A Service
// of that name given in the input and not controlled by the attachment makes its Ready False (ChildNotControlled)
// through the reconciler's withReachProblem.
import type { DHCPServer, DNSServer, Infra, InfraClusterAttachment, ProxyServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import {
  childName,
  components,
  desiredInfraStatus,
  infraStatusBody,
  planInfra,
  plannedOutcome,
  targetsInfra,
} from '../../infra';
import { compareText, sortedBy } from '../../workload/order';
import { namespaceOf } from '../../workload/meta';
import type {
  AttachmentStatusPlan,
  Component,
  InfraPlan,
  LiveChildren,
  Problem,
  StatusBody,
} from '../../infra';
import {
  attachmentStatusBody,
  attachmentStatusWithoutInfra,
  desiredExternalService,
  externalServiceName,
  externalServiceStatus,
  withReachProblem,
} from '../../attachment';
import type { AttachmentReachStatus } from '../../attachment';
import type { DefaultImages } from '../../workload/images';
import { defaultedProxySpec } from '../../proxy';
import { neighboursIn } from './input';
import type { RenderInput } from './input';
import { toYaml } from './yaml-text';

export interface RenderOptions {
  /** Milliseconds since the epoch: the clock of every new condition transition. */
  readonly now: number;
  readonly images: DefaultImages;
}

export interface RenderedFile {
  readonly name: string;
  readonly content: string;
}

/** The objects and statuses one render decides, before they become text. */
export interface RenderResult {
  /** Children to apply, sorted by kind, namespace, name. */
  readonly objects: readonly (DHCPServer | DNSServer | ProxyServer)[];
  /** The attachments' external Services to apply, sorted by namespace, name. */
  readonly externalServices: readonly KubeObject[];
  /** Every Infra's and attachment's status body, sorted by kind, namespace, name. */
  readonly statuses: readonly StatusBody[];
  /** Every DNSServer the controller would serve: the generated ones and the standalone ones given. */
  readonly dnsServers: readonly DNSServer[];
  /** Every DHCPServer the controller would serve: the generated ones and the standalone ones given. */
  readonly dhcpServers: readonly DHCPServer[];
  /** Every ProxyServer the controller would serve: the generated ones and the standalone ones given. */
  readonly proxyServers: readonly ProxyServer[];
}

export function objectFileName(obj: {
  kind: string;
  metadata: { name: string; namespace?: string };
}): string {
  return `${obj.kind.toLowerCase()}-${namespaceOf(obj)}-${obj.metadata.name}.yaml`;
}

function liveChildren(input: RenderInput, infra: Infra): LiveChildren {
  const find = <T extends { metadata: { name: string; namespace?: string } }>(
    list: readonly T[],
    c: Component,
  ): T | undefined =>
    list.find((o) => namespaceOf(o) === namespaceOf(infra) && o.metadata.name === childName(infra, c));
  return {
    dhcp: find(input.dhcpServers, 'dhcp'),
    dns: find(input.dnsServers, 'dns'),
    proxy: find(input.proxyServers, 'proxy'),
  };
}

function renderInfra(input: RenderInput, infra: Infra, options: RenderOptions) {
  const live = liveChildren(input, infra);
  const plan: InfraPlan = planInfra({
    infra,
    attachments: input.attachments,
    grants: input.grants,
    neighbours: neighboursIn(input, infra),
    nodePools: input.nodePools,
    machines: input.machines,
    services: input.services,
    children: live,
    images: options.images,
  });
  const outcomes = {
    dhcp: plannedOutcome(plan.children.dhcp),
    dns: plannedOutcome(plan.children.dns),
    proxy: plannedOutcome(plan.children.proxy),
  };
  const status = desiredInfraStatus(plan, outcomes, live);
  const id = {
    namespace: namespaceOf(infra),
    name: infra.metadata.name,
    conditions: infra.status?.conditions,
  };
  const objects = components.flatMap((c) => {
    const child = plan.children[c];
    return child.action === 'apply' ? [child.object] : [];
  });
  return { objects, infraStatus: infraStatusBody(id, status, options.now), attachments: plan.attachments };
}

function orphanPlans(input: RenderInput): AttachmentStatusPlan[] {
  return input.attachments
    .filter((a) => !a.metadata.deletionTimestamp && !input.infras.some((i) => targetsInfra(a, i)))
    .map((a) => attachmentStatusWithoutInfra(a));
}

const sameObject = (o: unknown, namespace: string, name: string): boolean => {
  const m = (o as { metadata?: { name?: string; namespace?: string } }).metadata;
  return m?.name === name && (m.namespace ?? 'default') === namespace;
};

/**
 * The attachment's external Service as its reconciler decides it: the Service of that name given in the input is
 * the live one, the ProxyServer the controller would serve (`<infra>-proxy`) gives the target port. A given
 * Service of that name the attachment does not control is the reconciler's ChildNotControlled problem.
 */
function externalService(
  input: RenderInput,
  proxies: readonly ProxyServer[],
  a: InfraClusterAttachment,
): { object?: KubeObject; status?: AttachmentReachStatus; problem?: Problem } {
  const namespace = namespaceOf(a);
  const proxy = proxies.find((p) => sameObject(p, namespace, `${a.spec.infraRef.name}-proxy`));
  const name = externalServiceName(a);
  const live = input.services.find(
    (s) => (s as { kind?: string }).kind === 'Service' && sameObject(s, namespace, name),
  ) as KubeObject | undefined;
  const plan = desiredExternalService({
    attachment: a,
    live,
    targetPort: proxy ? (defaultedProxySpec(proxy).port ?? 443) : 443,
  });
  if (plan.action === 'blocked') return { problem: plan.problem };
  if (plan.action !== 'apply') return {};
  return { object: plan.object, status: { externalServiceStatus: externalServiceStatus(name, live) } };
}

const key = (o: { kind: string; metadata: { name: string; namespace?: string } }): string =>
  `${o.kind}\u0000${namespaceOf(o)}\u0000${o.metadata.name}`;

export function renderInfras(input: RenderInput, options: RenderOptions): RenderResult {
  const objects: (DHCPServer | DNSServer | ProxyServer)[] = [];
  const statuses: StatusBody[] = [];
  const attachments: AttachmentStatusPlan[] = orphanPlans(input);
  for (const infra of input.infras) {
    const r = renderInfra(input, infra, options);
    objects.push(...r.objects);
    statuses.push(r.infraStatus);
    attachments.push(...r.attachments);
  }
  const served = <T extends DNSServer | DHCPServer | ProxyServer>(
    kind: T['kind'],
    given: readonly T[],
  ): T[] => {
    const generated = objects.filter((o): o is T => o.kind === kind);
    const standalone = given.filter((d) => !generated.some((g) => key(g) === key(d)));
    return sortedBy([...generated, ...standalone], key);
  };
  const proxyServers = served('ProxyServer', input.proxyServers);
  const externalServices: KubeObject[] = [];
  for (const p of attachments) {
    const previous = input.attachments.find(
      (a) => namespaceOf(a) === p.namespace && a.metadata.name === p.name,
    );
    const external = previous ? externalService(input, proxyServers, previous) : {};
    if (external.object) externalServices.push(external.object);
    const conditions = withReachProblem(p.conditions, external.problem);
    statuses.push(
      attachmentStatusBody(previous?.status?.conditions, { ...p, conditions }, options.now, external.status),
    );
  }
  return {
    objects: sortedBy(objects, key),
    externalServices: sortedBy(externalServices, key as (o: KubeObject) => string),
    statuses: sortedBy(statuses, key),
    dnsServers: served('DNSServer', input.dnsServers),
    dhcpServers: served('DHCPServer', input.dhcpServers),
    proxyServers,
  };
}

/** The files of a render result; a name two objects would share is an error (returned, not thrown). */
export function renderFiles(result: RenderResult): { files: RenderedFile[]; errors: string[] } {
  const files: RenderedFile[] = [...result.objects, ...result.externalServices].map((o) => ({
    name: objectFileName(o as { kind: string; metadata: { name: string; namespace?: string } }),
    content: toYaml(o),
  }));
  files.push({ name: 'status.yaml', content: toYaml(result.statuses) });
  const errors: string[] = [];
  const names = files.map((f) => f.name).sort(compareText);
  names.forEach((n, i) => {
    if (i > 0 && names[i - 1] === n) errors.push(`two objects would be written to the same file ${n}`);
  });
  return { files, errors };
}
