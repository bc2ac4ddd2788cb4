// The `HighAvailability` condition oooi-dhcp writes on its DHCPServer with the config's `ha` block. Pure: the pair's
// status in, the condition out. True only in hot-standby (every lease durable on both servers before its ACK);
// False otherwise, the reason naming the state (`PartnerDown`: serving alone, the one window with a single copy).
import type { OwnedCondition } from '@oooi/kube';
import type { HaStatus } from '../ha/pair';
import type { HaState } from '../ha/state';

export const HIGH_AVAILABILITY = 'HighAvailability';

const reasons: Record<HaState, string> = {
  waiting: 'Waiting',
  syncing: 'Syncing',
  ready: 'Ready',
  'hot-standby': 'HotStandby',
  'partner-down': 'PartnerDown',
};

const what: Record<HaState, string> = {
  waiting: 'serves no client until it has synced with its partner',
  syncing: 'is taking its partner’s leases; serves no client until they are durable here',
  ready: 'has synced; waits for its partner to be ready',
  'hot-standby': 'every lease is durable on both servers before its ACK',
  'partner-down': 'serves alone: its leases are durable here only until the partner is back and synced',
};

export function haCondition(s: HaStatus): OwnedCondition {
  const partner = `partner ${s.partner} ${s.partnerState !== undefined ? `is ${s.partnerState}` : 'is unreachable'}`;
  const serving = s.state === 'hot-standby' && s.role === 'standby' ? '; the primary serves' : '';
  return {
    type: HIGH_AVAILABILITY,
    status: s.state === 'hot-standby' ? 'True' : 'False',
    reason: reasons[s.state],
    message: `${s.role} in ${s.state} since ${new Date(s.since).toISOString()}: ${what[s.state]}${serving}; ${partner}`,
  };
}
