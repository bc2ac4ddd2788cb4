// The pure part of the probe's timing: operations start on a fixed grid (open loop: a slow operation does not delay
// the next one, as independent clients would not wait for each other), and the DHCP client is asked to renew only
// when its last renewal has ended: busybox udhcpc answers a renew signal that comes while a renewal is still
// unanswered by dropping its address and starting over (DISCOVER), which no real client's timer does.

/** The first grid point (T0 + k * EVERY_MS) not before NOW. */
export function nextDue(t0: number, everyMs: number, now: number): number {
  if (now <= t0) return t0;
  return t0 + Math.ceil((now - t0) / everyMs) * everyMs;
}

/** What the DHCP side does at a grid point: renew, or give up on the unanswered renewal (started at PENDING). */
export function dhcpStep(
  pending: number | undefined,
  now: number,
  deadlineMs: number,
): 'renew' | 'wait' | 'give-up' {
  if (pending === undefined) return 'renew';
  return now - pending >= deadlineMs ? 'give-up' : 'wait';
}

/**
 * udhcpc's hook events, as the probe reads them: a renewal ended well (`bound`, `renew`), the lease is gone
 * (`deconfig`, `nak`, `leasefail`) or nothing to count.
 */
export function hookOutcome(event: string): 'ok' | 'lost' | 'other' {
  if (event === 'bound' || event === 'renew') return 'ok';
  if (event === 'deconfig' || event === 'nak' || event === 'leasefail') return 'lost';
  return 'other';
}
