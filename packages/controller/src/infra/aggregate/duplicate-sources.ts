// DuplicateSourceIP (reference: "A duplicate source address claimed by two attachments removes only the ambiguous
// alias routes and sets the Infra condition to DuplicateSourceIP; the fully qualified attachment routes remain"):
// a /32 claimed by two or more attachments is removed from every claimant, which keep their other /32s.
import type { Conflict } from './attachments';
import { compareText } from '../../workload/order';

export interface SourceClaim {
  readonly attachment: string;
  readonly ranges: readonly string[];
}

export interface SourceVerdict {
  /** Each attachment's ranges with the shared ones removed (same order as given). */
  readonly ranges: ReadonlyMap<string, readonly string[]>;
  /** One conflict per shared /32, sorted by the address text. */
  readonly conflicts: readonly Conflict[];
}

export function removeDuplicateSources(claims: readonly SourceClaim[]): SourceVerdict {
  const claimants = new Map<string, string[]>();
  for (const claim of claims) {
    for (const range of new Set(claim.ranges)) {
      const list = claimants.get(range) ?? [];
      list.push(claim.attachment);
      claimants.set(range, list);
    }
  }
  const shared = [...claimants.entries()]
    .filter(([, names]) => names.length > 1)
    .sort(([a], [b]) => compareText(a, b));
  const sharedSet = new Set(shared.map(([range]) => range));
  const conflicts: Conflict[] = shared.map(([range, names]) => {
    const sorted = [...names].sort(compareText);
    return {
      reason: 'DuplicateSourceIP',
      message: `attachments ${sorted.map((n) => `"${n}"`).join(', ')} share source CIDR "${range}"`,
      attachments: sorted,
    };
  });
  const ranges = new Map<string, readonly string[]>(
    claims.map((c) => [c.attachment, c.ranges.filter((r) => !sharedSet.has(r))]),
  );
  return { ranges, conflicts };
}
