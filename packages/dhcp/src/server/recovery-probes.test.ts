// The probes' shell with a fake prober (no ARP runs in a unit test; e2e/dhcp/store-loss.test.ts uses the real
// one): one probe per address at a time, a free answer reused, an address in use held for the host that answered,
// every result counted, and the window's end clearing the holds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { writeRecoveryMark } from '../store/recovery-mark';
import { Registry } from 'prom-client';
import type { AddressProber, ProbeResult } from './arp-probe';
import { dhcpMetrics } from '../metrics';
import { RecoveryProbes } from './recovery-probes';
import { ip } from '../testing/packets';

const T0 = 1_000_000_000;
const X = ip('198.51.100.100');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-probes-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A server whose lease directory was found new at T0 (its mark written then), lease time 60 s. */
async function setup(answers: Map<number, ProbeResult>) {
  let now = T0;
  const asked: number[] = [];
  const prober: AddressProber = {
    probe: (addr) => {
      asked.push(addr);
      return Promise.resolve(answers.get(addr) ?? { kind: 'free' });
    },
    close: () => Promise.resolve(),
  };
  const r = new RecoveryProbes({
    prober,
    log: pino({ level: 'silent' }),
    now: () => now,
    leaseSecs: () => 60,
  });
  const registry = new Registry();
  const metrics = dhcpMetrics(registry, () => 0, { recovering: () => r.active(), held: () => r.heldCount() });
  await writeRecoveryMark(dir, { since: T0, reason: 'new_store' });
  await r.begin(dir, { isNew: false, damage: [] }, metrics.recovery);
  const count = async (result: string) =>
    (await registry.getSingleMetric('oooi_dhcp_address_probes_total')!.get()).values.find(
      (v) => v.labels.result === result,
    )?.value;
  return { r, asked, count, tick: (ms: number) => (now += ms) };
}

test('with a fake prober: concurrent asks share one probe, and a free answer stands for a few seconds', async () => {
  const s = await setup(new Map());
  expect(
    await Promise.all([s.r.mayOffer(X, 'aa:00:00:00:00:01'), s.r.mayOffer(X, 'aa:00:00:00:00:02')]),
  ).toEqual([true, true]);
  expect(await s.r.mayOffer(X, 'aa:00:00:00:00:01')).toBe(true);
  expect(s.asked).toEqual([X]);
  s.tick(6_000);
  expect(await s.r.mayOffer(X, 'aa:00:00:00:00:01')).toBe(true);
  expect(s.asked).toEqual([X, X]);
  expect(await s.count('free')).toBe(2);
});

test('with a fake prober: an address in use is held for the host that answered until the window ends', async () => {
  const holder = 'aa:00:00:00:00:09';
  const s = await setup(new Map([[X, { kind: 'in_use', mac: holder }]]));
  expect(await s.r.mayOffer(X, 'aa:00:00:00:00:01')).toBe(false);
  expect(await s.r.mayOffer(X, holder)).toBe(true);
  expect(s.r.holds()?.get(X)).toEqual({ mac: holder, until: T0 + 60_000 });
  expect(s.r.heldCount()).toBe(1);
  expect(await s.count('in_use')).toBe(2);
  s.tick(60_000);
  expect(s.r.active()).toBe(false);
  expect(s.r.holds()).toBeUndefined();
});

test('with a fake prober: a failed probe lets the offer go (counted)', async () => {
  const s = await setup(new Map([[X, { kind: 'failed', why: 'ENOENT /proc/net/arp' }]]));
  expect(await s.r.mayOffer(X, 'aa:00:00:00:00:01')).toBe(true);
  expect(await s.count('failed')).toBe(1);
});
