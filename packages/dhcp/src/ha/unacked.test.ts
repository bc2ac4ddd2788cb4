import { countsAsEvidence, probeUnanswered, UnackedClients } from './unacked';

test('a client retrying one transaction for max-ack-delay is unanswered; an answered one is not', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'b', xid: 7, type: 1 }, 0);
  u.observe({ mac: 'b', xid: 7, type: 3 }, 1900); // DISCOVER then REQUEST: offered (slowly), so answered
  u.observe({ mac: 'b', xid: 7, type: 3 }, 2000); // its REQUEST again soon after: not yet
  u.observe({ mac: 'a', xid: 1, type: 1 }, 1999);
  expect(u.count()).toBe(0);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 2000);
  expect(u.count()).toBe(1);
});

test('a new transaction (another xid) starts the clock again', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'a', xid: 2, type: 1 }, 30_000);
  u.observe({ mac: 'a', xid: 2, type: 1 }, 31_000);
  expect(u.count()).toBe(0);
});

test('a client asked once is not unanswered, whatever its secs field says; reset forgets everything', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  expect(u.observe({ mac: 'a', xid: 1, type: 1 }, 2500)).toBe(true);
  expect(u.observe({ mac: 'a', xid: 1, type: 1 }, 3000)).toBe(false); // counted once
  u.observe({ mac: 'b', xid: 1, type: 1 }, 0);
  expect(u.count()).toBe(1);
  u.reset();
  expect(u.count()).toBe(0);
});

test('a REQUEST sent again for max-ack-delay is unanswered too (the ACK never came)', () => {
  const u = new UnackedClients(2000);
  u.observe({ mac: 'a', xid: 1, type: 1 }, 0);
  u.observe({ mac: 'a', xid: 1, type: 3 }, 100);
  expect(u.observe({ mac: 'a', xid: 1, type: 3 }, 2099)).toBe(false);
  expect(u.observe({ mac: 'a', xid: 1, type: 3 }, 2100)).toBe(true);
});

// heartbeat 1 s, max-response-delay 3 s: a REQUEST counts from 5 s on; a DISCOVER at once when the partner served
const timers = { maxResponseDelayMs: 3000, heartbeatMs: 1000 };
test.each([
  {
    name: 'a DISCOVER at once, the primary served when last heard',
    type: 1,
    sinceMs: 0,
    partnerServed: true,
    want: true,
  },
  {
    name: 'a DISCOVER inside max-response-delay, the primary served',
    type: 1,
    sinceMs: 2999,
    partnerServed: true,
    want: true,
  },
  {
    name: 'a REQUEST inside the window: the live primary withholds its ACK',
    type: 3,
    sinceMs: 2999,
    partnerServed: true,
    want: false,
  },
  { name: 'a REQUEST just before the window ends', type: 3, sinceMs: 4999, partnerServed: true, want: false },
  { name: 'a REQUEST once the window ended', type: 3, sinceMs: 5000, partnerServed: true, want: true },
  {
    name: 'a DISCOVER, the partner did not serve when last heard (it may go partner-down itself)',
    type: 1,
    sinceMs: 4999,
    partnerServed: false,
    want: false,
  },
  {
    name: 'a DISCOVER, the partner did not serve, after the window',
    type: 1,
    sinceMs: 5000,
    partnerServed: false,
    want: true,
  },
])('$name', ({ type, sinceMs, partnerServed, want }) => {
  expect(countsAsEvidence(type, { ...timers, sinceMs, partnerServed })).toBe(want);
});

test('with the evidence gathered at once, a DISCOVER retried for max-ack-delay counts by 2 s after the loss', () => {
  const u = new UnackedClients(2000);
  const seen = (at: number) =>
    countsAsEvidence(1, { ...timers, sinceMs: at, partnerServed: true }) &&
    u.observe({ mac: 'a', xid: 9, type: 1 }, at);
  expect([0, 1000, 2000].map(seen)).toEqual([false, false, true]);
});

test.each([
  { what: 'no probe sent', round: undefined, now: 5000, served: true, want: false },
  {
    what: 'unanswered for max-ack-delay',
    round: { firstSentAt: 1000, answered: false },
    now: 3000,
    served: true,
    want: true,
  },
  {
    what: 'unanswered, not yet max-ack-delay',
    round: { firstSentAt: 1000, answered: false },
    now: 2999,
    served: true,
    want: false,
  },
  { what: 'answered', round: { firstSentAt: 1000, answered: true }, now: 9000, served: true, want: false },
  {
    what: 'partner last heard not serving',
    round: { firstSentAt: 1000, answered: false },
    now: 9000,
    served: false,
    want: false,
  },
])('the partner probe counts as an unanswered client: $what', ({ round, now, served, want }) => {
  expect(probeUnanswered(round, now, { partnerServed: served, maxAckDelayMs: 2000 })).toBe(want);
});
