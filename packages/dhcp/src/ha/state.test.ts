// The pair's state machine as a table: every state, what it hears of the partner, and where it goes.
import { mayTakeOver, mustReplicate, nextState, serves } from './state';
import type { HaFacts, HaRole, HaState } from './state';

const limits = { maxResponseDelayMs: 3000, maxUnackedClients: 0 };
const f = (
  role: HaRole,
  state: HaState,
  partner: HaState | undefined,
  more: Partial<HaFacts> = {},
): HaFacts => ({
  role,
  state,
  partner,
  unreachableMs: partner === undefined ? 10_000 : 0,
  unackedClients: 0,
  syncDone: false,
  partnerLeft: false,
  limits,
  ...more,
});

test.each<[string, HaFacts, HaState]>([
  [
    'primary alone at start, partner not yet gone',
    f('primary', 'waiting', undefined, { unreachableMs: 2999 }),
    'waiting',
  ],
  ['primary alone at start, partner gone: serves alone', f('primary', 'waiting', undefined), 'partner-down'],
  ['standby alone at start, nobody unanswered: waits', f('standby', 'waiting', undefined), 'waiting'],
  [
    'standby alone, a client unanswered: serves',
    f('standby', 'waiting', undefined, { unackedClients: 1 }),
    'partner-down',
  ],
  ['both start: the primary syncs first', f('primary', 'waiting', 'waiting'), 'syncing'],
  ['both start: the standby waits for the primary', f('standby', 'waiting', 'syncing'), 'waiting'],
  ['standby after the primary synced', f('standby', 'waiting', 'ready'), 'syncing'],
  ['returning to a partner serving alone', f('primary', 'waiting', 'partner-down'), 'syncing'],
  ['returning to a partner in hot-standby', f('standby', 'waiting', 'hot-standby'), 'syncing'],
  ['syncing, not done', f('primary', 'syncing', 'partner-down'), 'syncing'],
  ['syncing, done', f('primary', 'syncing', 'partner-down', { syncDone: true }), 'ready'],
  ['syncing, link lost', f('primary', 'syncing', undefined, { syncDone: true }), 'waiting'],
  ['ready, partner still serving alone', f('primary', 'ready', 'partner-down'), 'ready'],
  ['ready, partner ready', f('primary', 'ready', 'ready'), 'hot-standby'],
  ['ready, partner hot-standby', f('standby', 'ready', 'hot-standby'), 'hot-standby'],
  ['ready, link lost', f('standby', 'ready', undefined), 'waiting'],
  ['hot-standby, partner syncing', f('primary', 'hot-standby', 'syncing'), 'hot-standby'],
  [
    'hot-standby, partner served alone meanwhile: resync',
    f('standby', 'hot-standby', 'partner-down'),
    'waiting',
  ],
  [
    'primary, standby unreachable not yet long',
    f('primary', 'hot-standby', undefined, { unreachableMs: 100 }),
    'hot-standby',
  ],
  ['primary, standby gone', f('primary', 'hot-standby', undefined), 'partner-down'],
  [
    'standby, primary unreachable but clients answered',
    f('standby', 'hot-standby', undefined),
    'hot-standby',
  ],
  [
    'standby, primary unreachable and one client unanswered',
    f('standby', 'hot-standby', undefined, { unackedClients: 1 }),
    'partner-down',
  ],
  [
    'standby, unanswered clients not above the limit',
    f('standby', 'hot-standby', undefined, {
      unackedClients: 2,
      limits: { ...limits, maxUnackedClients: 2 },
    }),
    'hot-standby',
  ],
  [
    'standby, clients unanswered but the primary not gone long enough',
    f('standby', 'hot-standby', undefined, { unackedClients: 5, unreachableMs: 1000 }),
    'hot-standby',
  ],
  ['partner-down, partner still away', f('standby', 'partner-down', undefined), 'partner-down'],
  [
    'standby, the primary said it stopped: serves at once',
    f('standby', 'hot-standby', undefined, { unreachableMs: 0, partnerLeft: true }),
    'partner-down',
  ],
  [
    'primary, the standby said it stopped: alone at once',
    f('primary', 'hot-standby', undefined, { unreachableMs: 0, partnerLeft: true }),
    'partner-down',
  ],
  [
    'a farewell while still connected changes nothing',
    f('standby', 'hot-standby', 'hot-standby', { partnerLeft: true }),
    'hot-standby',
  ],
  ['partner-down, partner back and syncing', f('standby', 'partner-down', 'syncing'), 'partner-down'],
  ['partner-down, partner synced', f('standby', 'partner-down', 'ready'), 'hot-standby'],
  [
    'partner-down, partner in hot-standby (it will resync)',
    f('primary', 'partner-down', 'hot-standby'),
    'partner-down',
  ],
  ['both served alone: the standby yields', f('standby', 'partner-down', 'partner-down'), 'waiting'],
  [
    'both served alone: the primary keeps serving',
    f('primary', 'partner-down', 'partner-down'),
    'partner-down',
  ],
])('%s', (_name, facts, want) => {
  expect(nextState(facts)).toBe(want);
});

test('who serves: the primary in hot-standby, either one in partner-down, nobody else', () => {
  const table = (['waiting', 'syncing', 'ready', 'hot-standby', 'partner-down'] as const).map((s) => [
    s,
    serves('primary', s),
    serves('standby', s),
  ]);
  expect(table).toEqual([
    ['waiting', false, false],
    ['syncing', false, false],
    ['ready', false, false],
    ['hot-standby', true, false],
    ['partner-down', true, true],
  ]);
});

test('replication is required in hot-standby, and in partner-down while the partner is back', () => {
  expect(mustReplicate('hot-standby', false)).toBe(true);
  expect(mustReplicate('hot-standby', true)).toBe(true);
  expect(mustReplicate('partner-down', false)).toBe(false);
  expect(mustReplicate('partner-down', true)).toBe(true);
  expect(mustReplicate('waiting', true)).toBe(false);
});

test('a broken channel alone never lets the standby take over, however long', () => {
  for (const ms of [0, 3000, 60_000, 86_400_000])
    expect(mayTakeOver(f('standby', 'hot-standby', undefined, { unreachableMs: ms }))).toBe(false);
});
