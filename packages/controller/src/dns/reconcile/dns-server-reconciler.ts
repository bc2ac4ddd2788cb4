// DnsServerReconciler: read the DNSServer from the cache (absent or terminating: done, the garbage collector
// removes the children), render everything with the pure renderer, apply the four children by server-side apply
// (skipped when unchanged), then write status once. A spec that cannot be rendered leaves the children as they are
// (the running configuration keeps serving) and says why in Ready; so does a child the apiserver refuses (422:
// terminal, not retried until something changes). A Warning Event is recorded only when Ready changes.
import { API_VERSION, type DNSServer } from '@oooi/api';
import {
  isControlledBy,
  type Clock,
  type Condition,
  type EventRecorder,
  type KindDescriptor,
  type KubeClient,
  type KubeObject,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Request,
} from '@oooi/kube';
import { conditionChanged } from '../../workload/conditions';
import { rejectionOf, type Rejection } from '../../workload/rejection';
import { DnsConditionType } from '../conditions';
import { desiredDnsStatus } from '../desired/dns-status';
import { dnsChildNames } from '../desired/names';
import {
  renderDnsServer,
  type RenderDnsServerOptions,
  type RenderedDnsServer,
} from '../desired/render-dns-server';
import { ConfigMapKind, DeploymentKind, DnsServerKind, ServiceAccountKind, ServiceKind } from './kinds';

/** Reads one object from a cache (a ListWatchCache is one). */
export interface ObjectReader<T extends KubeObject = KubeObject> {
  get(namespace: string, name: string): T | undefined;
}

export interface DnsChildReaders {
  readonly serviceAccounts: ObjectReader;
  readonly configMaps: ObjectReader;
  readonly services: ObjectReader;
  readonly deployments: ObjectReader;
}

export interface DnsServerReconcilerOptions {
  /** The write path (one field manager). */
  readonly client: KubeClient;
  readonly dnsServers: ObjectReader<DNSServer & KubeObject>;
  /** Caches of the children (scoped to the DNS_SERVER_LABEL label is enough). */
  readonly children: DnsChildReaders;
  readonly clock: Clock;
  /** The operator's default image. */
  readonly render?: RenderDnsServerOptions;
  readonly events?: Pick<EventRecorder, 'event'>;
}

interface Applied {
  readonly conflicts: string[];
  readonly rejected?: Rejection;
  readonly service?: KubeObject;
  readonly deployment?: KubeObject;
}

type Step = readonly [KindDescriptor, KubeObject, ObjectReader];

export class DnsServerReconciler implements Reconciler {
  constructor(private readonly o: DnsServerReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    const dns = this.o.dnsServers.get(req.namespace, req.name);
    if (!dns || dns.metadata.deletionTimestamp) return {};
    const rendered = renderDnsServer(dns, this.o.render);
    const applied = rendered.ok ? await this.applyChildren(dns, rendered.value, ctx) : this.asTheyAre(dns);
    const status = desiredDnsStatus({ dns, rendered, ...applied, now: this.o.clock.now() });
    const ready = status.conditions?.find((c) => c.type === DnsConditionType.Ready);
    if (ready?.status === 'False' && conditionChanged(dns.status?.conditions, ready)) this.warn(dns, ready);
    await this.o.client.applyStatus(
      DnsServerKind,
      {
        apiVersion: API_VERSION,
        kind: 'DNSServer',
        metadata: { name: req.name, namespace: req.namespace },
        status,
      },
      { current: dns, force: true, signal: ctx.signal },
    );
    return {};
  }

  /** The live Service and Deployment, for a pass that applies nothing. */
  private asTheyAre(dns: DNSServer): Applied {
    const ns = dns.metadata.namespace ?? '';
    const { workload } = dnsChildNames(dns.metadata.name);
    return {
      conflicts: [],
      service: this.o.children.services.get(ns, workload),
      deployment: this.o.children.deployments.get(ns, workload),
    };
  }

  /**
   * Applies the four children in order. If any child's name is held by an object this DNSServer does not control,
   * nothing is applied: a Deployment must never mount someone else's ConfigMap or run as someone else's account.
   */
  private async applyChildren(dns: DNSServer, r: RenderedDnsServer, ctx: ReconcileContext): Promise<Applied> {
    const c = this.o.children;
    const steps: Step[] = [
      [ServiceAccountKind, r.children.serviceAccount, c.serviceAccounts],
      [ConfigMapKind, r.children.configMap, c.configMaps],
      [ServiceKind, r.children.service, c.services],
      [DeploymentKind, r.children.deployment, c.deployments],
    ];
    const current = await Promise.all(steps.map((step) => this.ownedCurrent(dns, step, ctx.signal)));
    const conflicts = steps
      .filter((_, i) => current[i] === 'foreign')
      .map(([kind, body]) => `${kind.kind}/${body.metadata?.name ?? ''}`);
    if (conflicts.length > 0) return { ...this.asTheyAre(dns), conflicts };
    const live = new Map<string, KubeObject>();
    for (const [i, [kind, body]] of steps.entries()) {
      const cur = current[i] as KubeObject | undefined;
      try {
        const out = await this.o.client.apply(kind, body, { force: true, current: cur, signal: ctx.signal });
        if (out.sent) ctx.log.info({ kind: kind.kind, child: body.metadata?.name }, 'Applied');
        live.set(kind.kind, out.object);
      } catch (err) {
        const rejected = rejectionOf(err, `${kind.kind}/${body.metadata?.name ?? ''}`);
        if (!rejected) throw err;
        ctx.log.warn({ err, kind: kind.kind, child: body.metadata?.name }, 'Child rejected');
        return { ...this.asTheyAre(dns), conflicts, rejected };
      }
    }
    return { conflicts, service: live.get('Service'), deployment: live.get('Deployment') };
  }

  /**
   * The live child; 'foreign' when its name is taken by an object this DNSServer does not control (it is never
   * taken over); undefined when there is none. A cache miss costs one GET, because the caches hold only our
   * children (label-scoped) and a foreign object would not be in them.
   */
  private async ownedCurrent(
    dns: DNSServer,
    [kind, body, reader]: Step,
    signal: AbortSignal,
  ): Promise<KubeObject | 'foreign' | undefined> {
    const ref = { namespace: body.metadata?.namespace ?? '', name: body.metadata?.name ?? '' };
    const current = reader.get(ref.namespace, ref.name) ?? (await this.o.client.get(kind, ref, signal));
    if (!current) return undefined;
    return isControlledBy(current, DnsServerKind, dns) ? current : 'foreign';
  }

  private warn(dns: DNSServer & KubeObject, ready: Condition): void {
    this.o.events?.event(dns, {
      type: 'Warning',
      reason: ready.reason,
      action: 'Reconcile',
      note: ready.message,
    });
  }
}
