// `oooi render`'s core, pure: the render input (files already parsed and checked) plus a clock reading become the
// files the controller's decisions amount to — one YAML file per object the controller would create or update,
// named `<kind>-<namespace>-<name>.yaml` (kind in lower case), and `status.yaml`, the status it would write on every
// Infra and attachment, sorted by kind, namespace and name. The same planInfra the reconcilers call decides.
import type { DHCPServer, DNSServer, Infra, ProxyServer } from '@oooi/api';
import { targetsInfra } from '../../infra/aggregate/attachments';
import { compareText, sortedBy } from '../../infra/aggregate/order';
import { attachmentStatusWithoutInfra } from '../../infra/desired/attachment-status';
import { childName, components, namespaceOf } from '../../infra/desired/child-meta';
import type { Component } from '../../infra/desired/child-meta';
import type { DefaultImages } from '../../workload/images';
import { planInfra } from '../../infra/desired/infra-plan';
import type { InfraPlan, LiveChildren } from '../../infra/desired/infra-plan';
import { desiredInfraStatus, plannedOutcome } from '../../infra/desired/infra-status';
import { attachmentStatusBody, infraStatusBody } from '../../infra/status/status-body';
import type { StatusBody } from '../../infra/status/status-body';
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
  const statuses: StatusBody[] = [infraStatusBody(id, status, options.now)];
  for (const p of plan.attachments) {
    const previous = input.attachments.find(
      (a) => namespaceOf(a) === p.namespace && a.metadata.name === p.name,
    );
    statuses.push(attachmentStatusBody(previous?.status?.conditions, p, options.now));
  }
  const objects = components.flatMap((c) => {
    const child = plan.children[c];
    return child.action === 'apply' ? [child.object] : [];
  });
  return { objects, statuses };
}

function orphanStatuses(input: RenderInput, now: number): StatusBody[] {
  return input.attachments
    .filter((a) => !a.metadata.deletionTimestamp && !input.infras.some((i) => targetsInfra(a, i)))
    .map((a) => attachmentStatusBody(a.status?.conditions, attachmentStatusWithoutInfra(a), now));
}

const key = (o: { kind: string; metadata: { name: string; namespace?: string } }): string =>
  `${o.kind}\u0000${namespaceOf(o)}\u0000${o.metadata.name}`;

export function renderInfras(input: RenderInput, options: RenderOptions): RenderResult {
  const objects: (DHCPServer | DNSServer | ProxyServer)[] = [];
  const statuses: StatusBody[] = orphanStatuses(input, options.now);
  for (const infra of input.infras) {
    const r = renderInfra(input, infra, options);
    objects.push(...r.objects);
    statuses.push(...r.statuses);
  }
  const served = <T extends DNSServer | DHCPServer | ProxyServer>(
    kind: T['kind'],
    given: readonly T[],
  ): T[] => {
    const generated = objects.filter((o): o is T => o.kind === kind);
    const standalone = given.filter((d) => !generated.some((g) => key(g) === key(d)));
    return sortedBy([...generated, ...standalone], key);
  };
  return {
    objects: sortedBy(objects, key),
    statuses: sortedBy(statuses, key),
    dnsServers: served('DNSServer', input.dnsServers),
    dhcpServers: served('DHCPServer', input.dhcpServers),
    proxyServers: served('ProxyServer', input.proxyServers),
  };
}

/** The files of a render result; a name two objects would share is an error (returned, not thrown). */
export function renderFiles(result: RenderResult): { files: RenderedFile[]; errors: string[] } {
  const files: RenderedFile[] = result.objects.map((o) => ({ name: objectFileName(o), content: toYaml(o) }));
  files.push({ name: 'status.yaml', content: toYaml(result.statuses) });
  const errors: string[] = [];
  const names = files.map((f) => f.name).sort(compareText);
  names.forEach((n, i) => {
    if (i > 0 && names[i - 1] === n) errors.push(`two objects would be written to the same file ${n}`);
  });
  return { files, errors };
}
