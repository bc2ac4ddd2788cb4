// Wires this controller's reconcilers onto a Manager (before it starts): the Event recorder, the controller's
// metrics, and every entry of reconcilers.ts (each entry takes the caches it reads from the manager). main.ts and
// the integration tests both call this, so the tests run exactly the production wiring.
import type { Clock, Controller, Manager } from '@oooi/kube';
import type { Registry } from 'prom-client';
import type { DefaultImages } from '../workload/images';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../workload/network-policy';
import { controllerCaches, InfraPlans } from '../infra';
import type { DirectAccess } from '../infra';
import type { AttachmentReachOptions } from '../attachment';
import { ControllerMetrics } from '../metrics';
import { reconcilers } from './reconcilers';
import type { ReconcilerSetup } from './setup';

/** The Event reporter of this controller (events.k8s.io/v1 `reportingController`). */
export const reportingController = 'hostedcluster.densityops.com/oooi-controller';
/** The one field manager of the process. */
export const fieldManager = 'oooi-controller';

export interface WireOptions {
  readonly manager: Manager;
  /** The process registry; default: the manager's. */
  readonly registry?: Registry;
  /** Watch one namespace only; every namespace when omitted. */
  readonly namespace?: string;
  readonly images: DefaultImages;
  /** The data-plane pods' NetworkPolicies; default: on, scraped from the OpenShift monitoring namespaces. */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (workload/placement.ts; default when omitted). */
  readonly nodeLossTolerationSeconds?: number;
  readonly clock: Clock;
  /** Which optional third-party kinds the apiserver serves (discovery.ts). */
  readonly served: { readonly nodePools: boolean; readonly machines: boolean };
  /** This process, for Events (`reportingInstance`), e.g. the pod name. */
  readonly instance: string;
  /** The attachment's reach (timings; a resolver for tests only); default: production. */
  readonly reach?: AttachmentReachOptions;
  /** Told about every kind a reconciler requests directly (registrations.ts: RBAC). */
  readonly declareAccess?: (access: DirectAccess) => void;
}

export function wireControllers(o: WireOptions): Controller[] {
  const scope = o.namespace ? { namespace: o.namespace } : {};
  const setup: ReconcilerSetup = {
    manager: o.manager,
    scope,
    served: o.served,
    images: o.images,
    networkPolicy: o.networkPolicy ?? DEFAULT_NETWORK_POLICY,
    ...(o.nodeLossTolerationSeconds !== undefined
      ? { nodeLossTolerationSeconds: o.nodeLossTolerationSeconds }
      : {}),
    events: o.manager.eventRecorder(reportingController, o.instance),
    clock: o.clock,
    metrics: new ControllerMetrics(o.registry ?? o.manager.metrics.registry),
    plans: new InfraPlans(controllerCaches(o.manager, { own: scope, ...o.served }), o.images),
    ...(o.reach ? { reach: o.reach } : {}),
    ...(o.declareAccess ? { declareAccess: o.declareAccess } : {}),
  };
  return reconcilers.map((entry) => entry.setup(setup));
}
