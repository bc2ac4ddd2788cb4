import { haCondition } from './ha-condition';
import type { HaStatus } from '../ha/pair';

const at = Date.parse('2026-12-06T04:00:00Z');
const status = (over: Partial<HaStatus>): HaStatus => ({
  role: 'primary',
  state: 'hot-standby',
  partner: '198.51.100.3:647',
  partnerState: 'hot-standby',
  since: at,
  ...over,
});

test.each<[string, Partial<HaStatus>, string, string, RegExp]>([
  [
    'normal, primary',
    {},
    'True',
    'HotStandby',
    /^primary in hot-standby since 2026-12-06T04:00:00.000Z: every lease is durable on both servers before its ACK; partner 198.51.100.3:647 is hot-standby$/,
  ],
  [
    'normal, standby',
    { role: 'standby' },
    'True',
    'HotStandby',
    /; the primary serves; partner .* is hot-standby$/,
  ],
  [
    'serving alone',
    { state: 'partner-down', partnerState: undefined },
    'False',
    'PartnerDown',
    /serves alone: .*; partner 198.51.100.3:647 is unreachable$/,
  ],
  [
    'syncing',
    { state: 'syncing', partnerState: 'partner-down' },
    'False',
    'Syncing',
    /taking its partner’s leases.*is partner-down$/,
  ],
  [
    'waiting',
    { state: 'waiting', partnerState: undefined },
    'False',
    'Waiting',
    /serves no client until it has synced/,
  ],
  [
    'ready',
    { state: 'ready', partnerState: 'partner-down' },
    'False',
    'Ready',
    /waits for its partner to be ready/,
  ],
])('%s', (...[, over, status_, reason, message]) => {
  const c = haCondition(status(over));
  expect([c.type, c.status, c.reason]).toEqual(['HighAvailability', status_, reason]);
  expect(c.message).toMatch(message);
});
