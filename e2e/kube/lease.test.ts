// Two processes contend for one Lease on the real apiserver. The first leads; when it is killed (SIGKILL: no
// release) the second takes over once the lease has expired, judged by when it last saw the lease renewed: not
// before leaseDuration minus a retry period, and within leaseDuration plus two jittered retry periods. On a
// graceful stop the lease is released and a standby takes over within a retry period.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { KubeClient, LeaseElector, LeaseKind, type LeaseSpec, type KubeObject } from '@oooi/kube';
import { e2eEnv, repoRoot } from '@oooi/rig';
import { makeNamespace, restFor, until } from './support';

jest.setTimeout(120_000);

const ns = `kube-lease-${process.pid}`;
const timings = { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 };
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

function elector(client: KubeClient, identity: string, log: Line[]): LeaseElector {
  return new LeaseElector({
    client,
    namespace: ns,
    name: 'lock',
    identity,
    ...timings,
    onStartedLeading: () => log.push({ event: 'leading', identity, at: Date.now() }),
    onStoppedLeading: ({ reason }) => log.push({ event: `stopped-${reason}`, identity, at: Date.now() }),
  });
}

test('the second process takes over within the lease duration after the first is killed, then release hands over at once', async () => {
  const rest = await restFor(e2eEnv().kubeconfig);
  const client = new KubeClient({ rest, fieldManager: 'e2e-lease' });
  const first = spawnElector('first');
  await until('the first process to lead', () => first.lines.some((l) => l.event === 'leading'), 60_000);

  const log: Line[] = [];
  const second = elector(client, 'second', log);
  const stopSecond = new AbortController();
  stops.push(stopSecond);
  await second.start(stopSecond.signal);
  await new Promise((resolve) => setTimeout(resolve, (3 * timings.leaseDurationMs) / 2));
  expect(second.isLeader()).toBe(false);
  expect(second.ready()).toBe(true);

  const killedAt = Date.now();
  first.child.kill('SIGKILL');
  await until('the second to lead', () => second.isLeader(), 3 * timings.leaseDurationMs);
  const takeover = (log.find((l) => l.event === 'leading')?.at ?? 0) - killedAt;
  process.stderr.write(`lease: second took over ${takeover} ms after the first was killed\n`);
  expect(takeover).toBeGreaterThanOrEqual(timings.leaseDurationMs - timings.retryPeriodMs);
  expect(takeover).toBeLessThanOrEqual(timings.leaseDurationMs + 2 * 2.2 * timings.retryPeriodMs);
  const lease = (await client.get<KubeObject & { spec: LeaseSpec }>(LeaseKind, {
    namespace: ns,
    name: 'lock',
  }))!;
  expect(lease.spec).toMatchObject({
    holderIdentity: 'second',
    leaseTransitions: 1,
    leaseDurationSeconds: 4,
  });

  const third = elector(client, 'third', log);
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
  expect(handover).toBeLessThan(timings.leaseDurationMs - timings.retryPeriodMs);
  stopThird.abort();
  await third.whenStopped();
});
