// The apps-ingress shell: runs the steps desired/apps-ingress-phase.ts asks for against the hosted cluster, one at
// a time, and returns the outcome it decides. Every step's failure becomes a fact (the decision turns it into the
// reference's phase and reason); only an aborted pass (its deadline) is thrown.
import type { InfraClusterAttachment } from '@oooi/api';
import { loadBalancerEndpoint, targetOf } from '../../infra';
import {
  HostedServiceKind,
  IPAddressPoolKind,
  L2AdvertisementKind,
  MetalLBKind,
  SubscriptionKind,
  cleanupObjects,
  createdFor,
  desiredIngressService,
  desiredMetalLBObjects,
  desiredSubscription,
  staleObjects,
} from '../desired/apps-ingress-objects';
import type { AppliedIdentities, AppsIngressNames } from '../desired/apps-ingress-objects';
import { nextAppsStep } from '../desired/apps-ingress-phase';
import type { AppsDecisionInput, AppsFacts, AppsOutcome, AppsStep } from '../desired/apps-ingress-phase';
import type { HostedAccess, HostedClients, HostedSession } from './hosted-clients';
import { applyHosted, deleteIfOurs, readyNodeCount, servedResources } from './hosted-io';

function errorText(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.length > 500 ? `${m.slice(0, 500)}…` : m;
}

/** The hosted client of an attachment (its key is `<namespace>/<name>`). */
export function accessFor(
  clients: HostedClients,
  a: InfraClusterAttachment,
  signal?: AbortSignal,
): Promise<HostedAccess> {
  const t = targetOf(a);
  return clients.access(
    `${t.namespace}/${t.name}`,
    {
      hostedCluster: t.hostedCluster,
      controlPlaneNamespace: t.controlPlaneNamespace,
      apiServerService: a.spec.apiServerService || 'kube-apiserver',
    },
    signal,
  );
}

interface StepContext {
  readonly a: InfraClusterAttachment;
  readonly names: AppsIngressNames;
  readonly previous: AppliedIdentities;
  readonly session: HostedSession;
  readonly signal?: AbortSignal;
}

async function metallbStep(c: StepContext): Promise<readonly string[]> {
  const marker = createdFor(c.a);
  const olm = await servedResources(c.session, SubscriptionKind.group, SubscriptionKind.version, c.signal);
  if (olm.has(SubscriptionKind.plural))
    await applyHosted(c.session, desiredSubscription(c.a), marker, c.signal);
  const served = await servedResources(c.session, MetalLBKind.group, MetalLBKind.version, c.signal);
  const missing = [MetalLBKind, IPAddressPoolKind, L2AdvertisementKind]
    .map((k) => k.plural)
    .filter((p) => !served.has(p))
    .sort();
  if (missing.length > 0) return missing;
  for (const o of desiredMetalLBObjects(c.a, c.names)) await applyHosted(c.session, o, marker, c.signal);
  return [];
}

async function step(c: StepContext, s: Exclude<AppsStep, 'access'>): Promise<Partial<AppsFacts>> {
  const marker = createdFor(c.a);
  switch (s) {
    case 'nodes':
      return { readyNodes: { ok: true, value: await readyNodeCount(c.session, c.signal) } };
    case 'stale':
      for (const r of staleObjects(c.previous, c.names)) await deleteIfOurs(c.session, r, marker, c.signal);
      return { staleDeleted: { ok: true, value: true } };
    case 'metallb':
      return { metallb: { ok: true, value: await metallbStep(c) } };
    case 'service':
      await applyHosted(c.session, desiredIngressService(c.a, c.names), marker, c.signal);
      return { service: { ok: true, value: true } };
    case 'endpoint': {
      const ref = { namespace: c.names.serviceNamespace, name: c.names.serviceName };
      const svc = await c.session.client.get(HostedServiceKind, ref, c.signal);
      return { endpoint: { ok: true, value: loadBalancerEndpoint(svc) } };
    }
  }
}

const factOf: Readonly<Record<Exclude<AppsStep, 'access'>, keyof AppsFacts>> = {
  nodes: 'readyNodes',
  stale: 'staleDeleted',
  metallb: 'metallb',
  service: 'service',
  endpoint: 'endpoint',
};

export interface AppsSyncInput extends AppsDecisionInput {
  readonly attachment: InfraClusterAttachment;
  readonly clients: HostedClients;
  readonly signal?: AbortSignal;
}

/** Walks the decision to its outcome. */
export async function syncAppsIngress(input: AppsSyncInput): Promise<AppsOutcome> {
  let facts: AppsFacts = {};
  let session: HostedSession | undefined;
  for (;;) {
    const d = nextAppsStep(input, facts);
    if ('outcome' in d) return d.outcome;
    if (d.step === 'access') {
      const access = await accessFor(input.clients, input.attachment, input.signal);
      if (access.state === 'ok') session = access.session;
      facts = {
        ...facts,
        access: access.state === 'ok' ? { ok: true, value: true } : { ok: false, error: access.why },
      };
      continue;
    }
    const c: StepContext = {
      a: input.attachment,
      names: input.names!,
      previous: input.previous,
      session: session!,
      signal: input.signal,
    };
    try {
      facts = { ...facts, ...(await step(c, d.step)) };
    } catch (err) {
      if (input.signal?.aborted) throw err;
      facts = { ...facts, [factOf[d.step]]: { ok: false, error: errorText(err) } };
    }
  }
}

export type CleanupResult =
  | { readonly state: 'done'; readonly deleted: number }
  | { readonly state: 'gone'; readonly why: string }
  | { readonly state: 'failed'; readonly why: string };

/** Deletes what the attachment created in the hosted cluster (disable, deletion): only objects annotated as ours. */
export async function cleanupAppsIngress(
  clients: HostedClients,
  a: InfraClusterAttachment,
  previous: AppliedIdentities,
  signal?: AbortSignal,
): Promise<CleanupResult> {
  const access = await accessFor(clients, a, signal);
  if (access.state !== 'ok') return access;
  let deleted = 0;
  try {
    for (const r of cleanupObjects(previous)) {
      if (await deleteIfOurs(access.session, r, createdFor(a), signal)) deleted += 1;
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    return { state: 'failed', why: errorText(err) };
  }
  return { state: 'done', deleted };
}
