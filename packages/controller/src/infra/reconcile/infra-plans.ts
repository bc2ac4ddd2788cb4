// The plan of each Infra, one per process, shared by the Infra reconciler and the attachment reconciler: planInfra
// runs once per change of what it reads, whichever reconciler asks first. Between two such changes (the epoch,
// plan-epoch.ts, has not moved) a pass takes the last plan in O(1), without gathering the world; after a move the
// world is gathered and its inputs compared (plan-memo.ts), and planned again only when one differs. The status
// writes of a cold start (every attachment's, every child's, the Infra's own) move nothing a plan reads, so the
// Infra passes they cause reuse one plan instead of planning their 200 attachments each time.
import type { Infra } from '@oooi/api';
import type { DefaultImages } from '../../workload/images';
import type { ControllerCaches } from '../caches';
import type { InfraPlan } from '../desired/infra-plan';
import { planEpochFor } from './plan-epoch';
import type { PlanEpoch } from './plan-epoch';
import { PlanMemo } from './plan-memo';
import type { PlanMemoCounts } from './plan-memo';
import { gatherWorld } from './world';

export class InfraPlans {
  private readonly memo = new PlanMemo();
  private readonly epoch: Pick<PlanEpoch, 'value'>;

  /** EPOCH: what moves when a cached input changes; default planEpochFor(CACHES) (tests may pass a fixed one). */
  constructor(
    private readonly caches: ControllerCaches,
    private readonly images: DefaultImages,
    epoch?: Pick<PlanEpoch, 'value'>,
  ) {
    this.epoch = epoch ?? planEpochFor(caches);
  }

  /** INFRA's plan from the caches as they are (the last one while no input moved). */
  of(infra: Infra): InfraPlan {
    const id = `${infra.metadata.namespace ?? ''}/${infra.metadata.name}`;
    return this.memo.planAt(id, this.epoch.value, () => gatherWorld(this.caches, infra, this.images));
  }

  /** One attachment's part of PLAN, by name, in O(1). */
  attachmentPlan(plan: InfraPlan, name: string): InfraPlan['attachments'][number] | undefined {
    return this.memo.attachmentPlan(plan, name);
  }

  /** Forgets an Infra that is gone. */
  forget(namespace: string, name: string): void {
    this.memo.forget(namespace, name);
  }

  /** How the plans were had (reused, compared, planned): for tests and diagnostics. */
  get counts(): Readonly<PlanMemoCounts> {
    return { ...this.memo.counts };
  }
}
