// The documented maximum of attachments one Infra routes (docs/limits.md), derived from the children's own CRD
// limits so that no generated child can exceed them: an attachment contributes at most 9 proxy backends (5
// control-plane, 2 apps, 2 kubernetes aliases) against the ProxyServer's 2,048, and at most 6 records per DNS view
// (5 control-plane names and *.apps) plus 4 shared kubernetes aliases against the DNSServer's 4,096. 200
// attachments give at most 1,800 backends and 1,204 records per view. Past the limit, attachments that already
// route keep routing (an attachment's own Aggregated=True condition says so), then the rest in name order fill
// what is left; every attachment left out is named in one AttachmentLimitExceeded conflict.
import type { InfraClusterAttachment } from '@oooi/api';

export const MAX_ATTACHMENTS_PER_INFRA = 200;

const wasAggregated = (a: InfraClusterAttachment): boolean =>
  (a.status?.conditions ?? []).some((c) => c.type === 'Aggregated' && c.status === 'True');

/** The attachments (name order in, name order out) that fit under the limit, and those left out. */
export function withinAttachmentLimit(
  included: readonly InfraClusterAttachment[],
  max = MAX_ATTACHMENTS_PER_INFRA,
): { kept: InfraClusterAttachment[]; over: InfraClusterAttachment[] } {
  if (included.length <= max) return { kept: [...included], over: [] };
  const first = [...included.filter(wasAggregated), ...included.filter((a) => !wasAggregated(a))];
  const keep = new Set(first.slice(0, max));
  return { kept: included.filter((a) => keep.has(a)), over: included.filter((a) => !keep.has(a)) };
}
