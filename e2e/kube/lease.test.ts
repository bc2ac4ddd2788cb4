// Two processes contend for one Lease on the real apiserver. The first leads; when it is killed (SIGKILL: no
// release, and just after a renewal: the worst case) the second, which watches the Lease and so saw the last
// renewal as it happened, takes over the moment that renewal's claim runs out: never before leaseDuration after
// the renewal, and so within leaseDuration of the kill (plus 500 ms for timers and API round trips). On a graceful stop the lease is released, the standby
// sees the release on its watch, and takes over within a retry period.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  KubeClient,
  LeaseElector,
  LeaseKind,
  type KubeObject,
  type LeaseSpec,
  type RestClient,
} from '@oooi/kube';
import { e2eEnv, repoRoot } from '@oooi/rig';
import { makeNamespace, restFor, until } from './support';

jest.setTimeout(120_000);

const ns = `kube-lease-${process.pid}`;
const timings = { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 };
/** Allowed past leaseDuration after the kill: timer lateness, the watch event, one GET and one PUT. */
const marginMs = 500;
let dropNamespace: () => Promise<void> = () => Promise.resolve();
const children: ChildProcess[] = [];
const stops: AbortController[] = [];

beforeAll(async () => {
  const rest = await restFor(e2eEnv().kubeconfig);
  dropNamespace = await makeNamespace(new KubeClient({ rest, fieldManager: 'e2e-user' }), ns);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const stop of stops) stop.abort();
  await dropNamespace();
});

interface Line {
  event: string;
  identity: string;
  at: number;
}

/**
 * Starts fixtures/elector.ts in its own process (node with the tsx loader, not the tsx CLI, whose wrapper process
 * would leave the real one running on SIGKILL) and collects its JSON lines.
 */
function spawnElector(identity: string): { child: ChildProcess; lines: Line[] } {
  const script = join(__dirname, 'fixtures', 'elector.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, e2eEnv().kubeconfig, ns, 'lock', identity],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        LEASE_MS: String(timings.leaseDurationMs),
        RENEW_MS: String(timings.renewDeadlineMs),
        RETRY_MS: String(timings.retryPeriodMs),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const lines: Line[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Line));
  return { child, lines };
}

function elector(rest: RestClient, identity: string, log: Line[]): LeaseElector {
  return new LeaseElector({
    client: new KubeClient({ rest, fieldManager: 'e2e-lease' }),
    rest,
    namespace: ns,
    name: 'lock',
    identity,
    ...timings,
    onStartedLeading: () => log.push({ event: 'leading', identity, at: Date.now() }),
    onStoppedLeading: ({ reason }) => log.push({ event: `stopped-${reason}`, identity, at: Date.now() }),
  });
}

const readLease = async (client: KubeClient): Promise<KubeObject & { spec: LeaseSpec }> =>
  (await client.get<KubeObject & { spec: LeaseSpec }>(LeaseKind, { namespace: ns, name: 'lock' }))!;

test('the second process takes over within the lease duration after the first is killed, then release hands over at once', async () => {
  const rest = await restFor(e2eEnv().kubeconfig);
  const client = new KubeClient({ rest, fieldManager: 'e2e-lease' });
  const first = spawnElector('first');
  await until('the first process to lead', () => first.lines.some((l) => l.event === 'leading'), 60_000);

  const log: Line[] = [];
  const second = elector(rest, 'second', log);
  const stopSecond = new AbortController();
  stops.push(stopSecond);
  await second.start(stopSecond.signal);
  await new Promise((resolve) => setTimeout(resolve, (3 * timings.leaseDurationMs) / 2));
  expect(second.isLeader()).toBe(false);
  expect(second.ready()).toBe(true);

  // Kill just after a renewal: the worst case, with a whole leaseDuration of the last claim still to run.
  const renewed = (await readLease(client)).spec.renewTime;
  await until('a renewal', async () => (await readLease(client)).spec.renewTime !== renewed, 5_000);
  const killedAt = Date.now();
  first.child.kill('SIGKILL');
  // Still the first's: its last renewal. renewTime is the first's clock, comparable here only because both
  // processes run on this host (the elector itself never compares it with its own clock).
  const lastRenewal = Date.parse((await readLease(client)).spec.renewTime ?? '');
  await until('the second to lead', () => second.isLeader(), 3 * timings.leaseDurationMs);
  const takeover = (log.find((l) => l.event === 'leading')?.at ?? 0) - killedAt;
  const afterRenewal = takeover + killedAt - lastRenewal;
  process.stderr.write(
    `lease: second took over ${takeover} ms after the first was killed ` +
      `(${afterRenewal} ms after its last renewal, ${killedAt - lastRenewal} ms before the kill)\n`,
  );
  expect(afterRenewal).toBeGreaterThanOrEqual(timings.leaseDurationMs);
  expect(takeover).toBeGreaterThanOrEqual(timings.leaseDurationMs - timings.retryPeriodMs);
  expect(takeover).toBeLessThanOrEqual(timings.leaseDurationMs + marginMs);
  const lease = await readLease(client);
  expect(lease.spec).toMatchObject({
    holderIdentity: 'second',
    leaseTransitions: 1,
    leaseDurationSeconds: 4,
  });

  const third = elector(rest, 'third', log);
  const stopThird = new AbortController();
  stops.push(stopThird);
  await third.start(stopThird.signal);
  const releasedAt = Date.now();
  stopSecond.abort();
  await second.whenStopped();
  expect(log.filter((l) => l.identity === 'second').map((l) => l.event)).toEqual([
    'leading',
    'stopped-released',
  ]);
  await until('the third to lead', () => third.isLeader(), 3 * timings.leaseDurationMs);
  const handover = (log.find((l) => l.identity === 'third' && l.event === 'leading')?.at ?? 0) - releasedAt;
  process.stderr.write(`lease: third took over ${handover} ms after the second released\n`);
  expect(handover).toBeLessThanOrEqual(timings.retryPeriodMs);
  stopThird.abort();
  await third.whenStopped();
});
