// Child process for the kill -9 test: commits leases as fast as it can (32 concurrent writers), compacting
// every 2,000 commits, and prints each address once its commit resolved (the record is durable).
// Usage: commit-loop.ts DIR
import { LeaseStore } from '../lease-store';

async function main(): Promise<void> {
  const { store, table } = await LeaseStore.open(process.argv[2]!);
  let n = 0;
  const one = async (): Promise<void> => {
    for (;;) {
      const i = n++;
      const lease = { ip: i, clientKey: `hw:${i}`, mac: 'm', state: 'bound' as const, expiresAt: 1e13 };
      table.set(lease);
      await store.commit([lease]);
      process.stdout.write(`${i}\n`);
      if (i % 2000 === 0) void store.compact(table);
    }
  };
  await Promise.all(Array.from({ length: 32 }, one));
}
void main();
