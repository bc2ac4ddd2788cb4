// The goals beside the figures (goals.ts): which goal each row gets and when it is met.
import { goal, table, type Row } from './goals';

const row = (more: Partial<Row>): Row => ({
  component: 'dns',
  event: 'SIGKILL vlan100-dns',
  op: 'dns',
  ops: 100,
  failed: 0,
  longestGapMs: 1000,
  doubleAllocations: 0,
  leasesLost: 0,
  ...more,
});

it.each<[string, Partial<Row>, string, boolean]>([
  ['dns, none failed', {}, '0 failed (two resolvers)', true],
  ['dns, one failed', { failed: 1 }, '0 failed (two resolvers)', false],
  ['tls across a rollout, none failed', { op: 'tls', event: 'rollout' }, '0 failed (rollout)', true],
  [
    'tls across a rollout, some failed',
    { op: 'tls', event: 'rollout', failed: 2 },
    '0 failed (rollout)',
    false,
  ],
  ['tls, a pod killed, 2.5 s', { op: 'tls', failed: 40, longestGapMs: 2500 }, 'fails <= 3 s', true],
  ['tls, a node lost, 50 s', { op: 'tls', failed: 900, longestGapMs: 50_000 }, 'fails <= 3 s', false],
  [
    'dhcp within Kea HA',
    { op: 'dhcp', longestGapMs: 4000 },
    'gap <= 4.38 s (Kea HA), 0 lost, 0 double',
    true,
  ],
  ['dhcp, 8.8 s', { op: 'dhcp', longestGapMs: 8800 }, 'gap <= 4.38 s (Kea HA), 0 lost, 0 double', false],
  ['dhcp, a lease lost', { op: 'dhcp', leasesLost: 1 }, 'gap <= 4.38 s (Kea HA), 0 lost, 0 double', false],
  ['dhcp, a double', { op: 'dhcp', doubleAllocations: 1 }, 'gap <= 4.38 s (Kea HA), 0 lost, 0 double', false],
])('%s', (_what, more, want, met) => {
  expect(goal(row(more))).toEqual({ goal: want, met });
});

it('table: a header, then each row with its goal and met / MISSED', () => {
  const lines = table([row({}), row({ op: 'dhcp', leasesLost: 2 })]).split('\n');
  expect(lines[0]).toMatch(/^component +event +op +ops +failed +longest gap +double +lost +goal$/);
  expect(lines[1]).toMatch(
    /^dns +SIGKILL vlan100-dns +dns +100 +0 +1\.00 s +- +- +0 failed \(two resolvers\) +met$/,
  );
  expect(lines[2]).toMatch(/dhcp .* 0 +2 +gap <= 4\.38 s \(Kea HA\), 0 lost, 0 double +MISSED$/);
});
