// The knobs of an attachment's reach into other places (the external Service, the hosted cluster): the
// reference's requeue intervals, the bound on cleanup at deletion, and one test-only resolver. Production uses the
// defaults; the integration tests shorten the timings so a walk through every phase takes seconds, not minutes.
import type { LookupFunction } from 'node:net';
import { defaultAppsIngressTimings } from '../desired/apps-ingress-phase';
import type { AppsIngressTimings } from '../desired/apps-ingress-phase';

export interface ReachTimings extends AppsIngressTimings {
  /** How often a deletion retries a hosted-cluster cleanup that failed. Default 30 s. */
  readonly cleanupRetryMs: number;
  /**
   * How long after the deletion started a failing hosted-cluster cleanup is retried before the finalizer is
   * released anyway, leaving the objects there (Warning Event `HostedCleanupAbandoned`). Default 10 min.
   */
  readonly cleanupBoundMs: number;
}

export const defaultReachTimings: ReachTimings = {
  ...defaultAppsIngressTimings,
  cleanupRetryMs: 30_000,
  cleanupBoundMs: 600_000,
};

export interface AttachmentReachOptions {
  readonly timings?: Partial<ReachTimings>;
  /**
   * FOR TESTS ONLY: resolves the host names of hosted-cluster API Services, which a test machine cannot resolve.
   * TLS (server name, verification) is unchanged.
   */
  readonly hostedClusterLookupForTests?: LookupFunction;
}
