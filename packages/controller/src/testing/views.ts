// MemberView builders for the renderer tests (a view is what aggregation hands the child builders).
import type { AppsEndpoint, MemberView } from '../infra';
import { targetOf } from '../infra';
import { attachment } from './fixtures';
import type { AttachmentOptions } from './fixtures';

export function view(
  name: string,
  o: AttachmentOptions & { sources?: readonly string[]; appsAt?: Partial<AppsEndpoint> } = {},
): MemberView {
  const a = attachment(name, o);
  const ranges = o.sources ?? [];
  return {
    attachment: a,
    target: targetOf(a),
    apps: o.appsAt
      ? { endpoint: '198.51.100.200', dnsIP: '198.51.100.200', httpPort: 80, httpsPort: 443, ...o.appsAt }
      : undefined,
    appsRejected: undefined,
    sources: ranges.length > 0 ? { state: 'known', nodePools: [], ranges, dropped: 0 } : { state: 'none' },
    sourceRanges: ranges,
  };
}
