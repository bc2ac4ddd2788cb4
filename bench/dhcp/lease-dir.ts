// A lease directory of N bound leases (one per client, MACs 02:00:00:xx:xx:xx, from 198.18.1.0 on), written
// through the lease store as the server writes it: the restart measurements of run.ts and restart.ts read it.
import { LeaseStore, type Lease } from '@oooi/dhcp';

export async function writeLeaseDir(dir: string, n: number): Promise<void> {
  const { store } = await LeaseStore.open(dir);
  const base = (198 << 24) + (18 << 16) + 256;
  const hex = (v: number) => (v & 255).toString(16).padStart(2, '0');
  const leases: Lease[] = [];
  for (let i = 0; i < n; i++) {
    const mac = `02:00:00:${hex(i >> 16)}:${hex(i >> 8)}:${hex(i)}`;
    leases.push({
      ip: (base + i) >>> 0,
      clientKey: `hw:${mac}`,
      mac,
      state: 'bound',
      expiresAt: Date.now() + 7_200_000,
    });
  }
  for (let i = 0; i < leases.length; i += 1000) await store.commit(leases.slice(i, i + 1000));
  await store.close();
}
