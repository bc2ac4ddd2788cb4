// The CI slice of the wire fuzzer: 30,000 mutations of real client captures against the running server; it
// stays up, its memory does not grow, and a real client still gets a lease. bench/dhcp/fuzz.ts runs 1,000,000.
import { e2eEnv } from '@oooi/rig';
import { AFTER_FUZZ_IP, runWireFuzz } from './fuzz-run';
import { openDhcpLab, type DhcpLab } from './lab';

let lab: DhcpLab;
beforeAll(async () => {
  lab = await openDhcpLab(e2eEnv().rig);
});
afterAll(async () => {
  await lab?.dispose();
});

test('30,000 mutated real-client packets: no crash, memory flat, a real client still gets a lease', async () => {
  const r = await runWireFuzz(lab, { count: 30_000, rate: 5_000, seed: 1201 });
  expect(r.sent).toBe(30_000);
  expect(r.alive).toBe(true);
  expect(r.leaseAfter).toBe(AFTER_FUZZ_IP);
  expect(r.malformed).toBeGreaterThan(1000);
  // flat: the last sample within 20 MiB of the one a tenth into the run (warm-up excluded)
  expect(r.rssMiB.at(-1)! - r.rssMiB[1]!).toBeLessThan(20);
}, 180_000);
