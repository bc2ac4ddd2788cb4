// The full wire fuzz as a script (bench/dhcp/fuzz.ts runs it): COUNT mutations of real client captures
// against a running oooi-dhcp in the pod-shaped lab namespaces; prints whether it survived, its RSS over the
// run, and whether a real client still gets a lease afterwards. Exit 0 on a pass.
//   node --import tsx e2e/dhcp/fuzz-full.ts [--count 1000000] [--rate 20000] [--seed 1]
import { runWireFuzz } from './fuzz-run';
import { openDhcpLab } from './lab';

const arg = (flag: string, def: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

async function main(): Promise<void> {
  const lab = await openDhcpLab(`bench-dhcp-fuzz-${process.pid}`);
  try {
    const r = await runWireFuzz(lab, {
      count: arg('--count', 1_000_000),
      rate: arg('--rate', 20_000),
      seed: arg('--seed', 1),
    });
    console.log(JSON.stringify(r));
    const grew = r.rssMiB.at(-1)! - r.rssMiB[1]!;
    const ok = r.alive && r.leaseAfter !== undefined && r.sent === arg('--count', 1_000_000) && grew < 20;
    console.log(
      `${ok ? 'PASS' : 'FAIL'}: ${r.sent} packets in ${r.seconds.toFixed(0)} s (${r.malformed} counted malformed), server ` +
        `${r.alive ? 'alive' : 'DEAD'}, RSS ${r.rssMiB[1]} -> ${r.rssMiB.at(-1)} MiB, real client lease afterwards: ${r.leaseAfter ?? 'none'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await lab.dispose();
  }
}
void main();
