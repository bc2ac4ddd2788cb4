// The hot-standby pair's state machine (pure): Kea's HA hook in hot-standby mode, with one rule more — a server
// that lost the partner and finds it serving alone syncs before it serves again. Each server decides its next state
// from its own state, what it last heard of the partner, how long the partner has been unreachable and how many
// clients go unanswered (ha/unacked.ts).
//
//   waiting       just started, or the link broke while syncing: learns the partner's state; serves nobody
//   syncing       fetches every lease the partner holds, makes them durable, sends back what only it has
//   ready         synced; waits for the partner to be ready or hot-standby
//   hot-standby   normal: the primary serves and replicates every lease before its ACK; the standby serves nobody
//   partner-down  the partner is gone: this server serves alone (its leases are durable here only)

export type HaRole = 'primary' | 'standby';
export type HaState = 'waiting' | 'syncing' | 'ready' | 'hot-standby' | 'partner-down';

export const haStates: readonly HaState[] = ['waiting', 'syncing', 'ready', 'hot-standby', 'partner-down'];

export interface HaLimits {
  /** How long the partner may be unreachable before it counts as gone. */
  readonly maxResponseDelayMs: number;
  /** The standby takes over once more clients than this go unanswered (the primary needs none). */
  readonly maxUnackedClients: number;
}

export interface HaFacts {
  readonly role: HaRole;
  readonly state: HaState;
  /** The partner's state as it last said, or undefined while it is unreachable. */
  readonly partner: HaState | undefined;
  /** How long the partner has been unreachable (0 while reachable). */
  readonly unreachableMs: number;
  /** Clients seen retrying without an answer since the partner became unreachable. */
  readonly unackedClients: number;
  /** The sync of the current syncing round is complete (its leases durable here and at the partner). */
  readonly syncDone: boolean;
  /** The partner said it stopped (a clean shutdown: its DHCP sockets were closed first) and has not come back. */
  readonly partnerLeft: boolean;
  readonly limits: HaLimits;
}

/**
 * Whether this server may take over: the partner said it stopped, or it is gone and, for the standby, clients go
 * unanswered.
 */
export function mayTakeOver(f: HaFacts): boolean {
  if (f.partner !== undefined) return false;
  if (f.partnerLeft) return true;
  if (f.unreachableMs < f.limits.maxResponseDelayMs) return false;
  return f.role === 'primary' || f.unackedClients > f.limits.maxUnackedClients;
}

export function nextState(f: HaFacts): HaState {
  const p = f.partner;
  switch (f.state) {
    case 'waiting':
      if (p === undefined) return mayTakeOver(f) ? 'partner-down' : 'waiting';
      // the primary syncs first when both start; the standby waits until the primary is past syncing
      if (p === 'waiting' || p === 'syncing') return f.role === 'primary' ? 'syncing' : 'waiting';
      return 'syncing';
    case 'syncing':
      if (p === undefined) return 'waiting';
      return f.syncDone ? 'ready' : 'syncing';
    case 'ready':
      if (p === undefined) return 'waiting';
      return p === 'ready' || p === 'hot-standby' ? 'hot-standby' : 'ready';
    case 'hot-standby':
      if (p === undefined) return mayTakeOver(f) ? 'partner-down' : 'hot-standby';
      // the partner served alone while the link was down: what it gave out must come here first
      return p === 'partner-down' ? 'waiting' : 'hot-standby';
    case 'partner-down':
      if (p === 'ready') return 'hot-standby';
      // both served alone (the link was down on both sides): the standby yields and syncs
      if (p === 'partner-down' && f.role === 'standby') return 'waiting';
      return 'partner-down';
  }
}

/** Whether a server in STATE answers clients. */
export function serves(role: HaRole, state: HaState): boolean {
  return state === 'partner-down' || (state === 'hot-standby' && role === 'primary');
}

/**
 * Whether a lease change must be durable at the partner before the reply: always in hot-standby (an unreachable
 * partner then means no ACK), in partner-down only while the partner is reachable again (it is syncing back).
 */
export function mustReplicate(state: HaState, partnerReachable: boolean): boolean {
  return state === 'hot-standby' || (state === 'partner-down' && partnerReachable);
}
