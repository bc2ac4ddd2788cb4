// The reconcilers this process runs, in one small list: main.ts registers each entry with the manager before it
// starts. A new reconciler adds one entry (its setup declares its watches and builds it).
import type { CacheScope, Clock, Controller, EventRecorder, Manager } from '@oooi/kube';
import { setupAttachmentController } from './attachment/attachment-controller';
import type { DefaultImages } from './desired/images';
import { setupDnsServerController } from './dns';
import { setupInfraController } from './infra/infra-controller';
import type { ControllerMetrics } from './metrics';
import type { ControllerCaches } from './run/controller-caches';

/** What every reconciler's setup is given. */
export interface ReconcilerSetup {
  readonly manager: Manager;
  /** Every cache the controller reads, scoped like the watches. */
  readonly caches: ControllerCaches;
  /** Scope of our kinds: one namespace (`--namespace`) or all. */
  readonly scope: CacheScope;
  /** The operator's default images (flags). */
  readonly images: DefaultImages;
  readonly events: EventRecorder;
  readonly clock: Clock;
  readonly metrics: ControllerMetrics;
}

export interface ReconcilerEntry {
  /** The controller name (logs, metrics): the kind in lower case. */
  readonly name: string;
  readonly setup: (s: ReconcilerSetup) => Controller;
}

export const reconcilers: readonly ReconcilerEntry[] = [
  { name: 'infra', setup: setupInfraController },
  { name: 'infraclusterattachment', setup: setupAttachmentController },
  { name: 'dnsserver', setup: setupDnsServerController },
];
