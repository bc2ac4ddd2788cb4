// The pure part of the probe's timing: DNS and TLS operations start on a fixed grid (open loop: a slow operation does
// not delay the next one, as independent clients would not wait for each other); DHCP renewals keep one outstanding
// at a time (a client in RENEWING has one transaction), an unanswered one given up at the next grid point.

/** The first grid point (T0 + k * EVERY_MS) not before NOW. */
export function nextDue(t0: number, everyMs: number, now: number): number {
  if (now <= t0) return t0;
  return t0 + Math.ceil((now - t0) / everyMs) * everyMs;
}

/** What the DHCP side does at a grid point: renew, wait, or give up on the unanswered renewal started at PENDING (then renew). */
export function dhcpStep(
  pending: number | undefined,
  now: number,
  deadlineMs: number,
): 'renew' | 'wait' | 'give-up' {
  if (pending === undefined) return 'renew';
  return now - pending >= deadlineMs ? 'give-up' : 'wait';
}

/** udhcpc's hook events, as the probe reads them: a lease (`bound`, `renew`), none (`deconfig`, `nak`, `leasefail`). */
export function hookOutcome(event: string): 'ok' | 'lost' | 'other' {
  if (event === 'bound' || event === 'renew') return 'ok';
  if (event === 'deconfig' || event === 'nak' || event === 'leasefail') return 'lost';
  return 'other';
}
