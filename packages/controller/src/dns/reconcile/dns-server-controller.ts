// The DNSServer controller's watches (STYLE §2.10) and its registration with a Manager. Children are owned through
// their controller owner reference; their caches hold only objects carrying DNS_SERVER_LABEL.
import type { DNSServer } from '@oooi/api';
import {
  systemClock,
  type Clock,
  type Controller,
  type EventRecorder,
  type KindDescriptor,
  type KubeObject,
  type Manager,
} from '@oooi/kube';
import { DNS_SERVER_LABEL } from '../desired/names';
import type { RenderDnsServerOptions } from '../desired/render-dns-server';
import { DnsServerReconciler } from './dns-server-reconciler';
import { ConfigMapKind, DeploymentKind, DnsServerKind, ServiceAccountKind, ServiceKind } from './kinds';

/** What the DNSServer controller watches: DNSServers, and the four kinds of children it owns. */
export const dnsServerWatches = {
  for: DnsServerKind,
  owns: [ServiceAccountKind, ConfigMapKind, ServiceKind, DeploymentKind],
  /** Label selector of the owned kinds' caches. */
  ownedSelector: DNS_SERVER_LABEL,
} as const satisfies { for: KindDescriptor; owns: readonly KindDescriptor[]; ownedSelector: string };

export interface DnsServerControllerOptions {
  /** Watch one namespace only; all namespaces when omitted. */
  readonly namespace?: string;
  /** The operator's default CoreDNS image (controller flag / Helm value). */
  readonly render?: RenderDnsServerOptions;
  readonly events?: EventRecorder;
  readonly maxConcurrentReconciles?: number;
  /** Default: the system clock. */
  readonly clock?: Clock;
}

/** Declares the `dnsserver` controller on MANAGER (before it starts) and returns it. */
export function registerDnsServerController(
  manager: Manager,
  options: DnsServerControllerOptions = {},
): Controller {
  const scope = { namespace: options.namespace };
  const owned = { ...scope, labelSelector: dnsServerWatches.ownedSelector };
  const reader = (kind: KindDescriptor) => manager.cacheFor(kind, owned);
  const reconciler = new DnsServerReconciler({
    client: manager.client,
    dnsServers: manager.cacheFor<DNSServer & KubeObject>(DnsServerKind, scope),
    children: {
      serviceAccounts: reader(ServiceAccountKind),
      configMaps: reader(ConfigMapKind),
      services: reader(ServiceKind),
      deployments: reader(DeploymentKind),
    },
    clock: options.clock ?? systemClock(),
    render: options.render,
    events: options.events,
  });
  let builder = manager
    .controller('dnsserver')
    .for(DnsServerKind, scope)
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1 });
  for (const kind of dnsServerWatches.owns) builder = builder.owns(kind, owned);
  return builder.complete(reconciler);
}
