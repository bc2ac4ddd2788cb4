// "CR change → answered" for DNS: how long after a DNSServer edit reaches the apiserver both views of the real
// CoreDNS answer the new record, with a real kubelet's ConfigMap propagation modelled (the sandbox's kubelet stand-in,
// 60 s by default). Not a timed test: bench/dns/change.ts runs it (the lab lives with the e2e tests),
//   pnpm tsx bench/dns/change.ts [--edits 20] [--delay-ms 60000]
// A throw-away control plane (the rig); the DNSServer reconciler in this process; the DNS pod as the stand-in runs it
// (CoreDNS + its config-sync sidecar, under the pod's own ServiceAccount token); dig from a VLAN client and from a
// pod-network client inside network namespaces this script creates (nothing in the root namespace). Each edit swaps
// one cluster's records for another's by server-side apply, then both views are polled every 10 ms until they answer
// it (bravo's records replace charlie's, then the other way round, and so on: the name asked was just added, and
// answered by the upstream stub before). Prints each edit, then p50 / p99 / max per view and for both.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { rigDown, rigUp } from '@oooi/rig';
import { KUBELET_CONFIGMAP_DELAY_MS } from '../sandbox/kubelet';
import { startWatchedDns, type WatchedDns } from './watched-pod';

function option(argv: readonly string[], flag: string, def: number): number {
  const i = argv.indexOf(flag);
  const v = i >= 0 ? Number(argv[i + 1]) : def;
  if (!Number.isInteger(v) || v < 0) throw new Error(`${flag} needs a non-negative integer`);
  return v;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
}

const fmt = (xs: readonly number[]) =>
  `p50 ${quantile(xs, 0.5).toFixed(0)} ms, p99 ${quantile(xs, 0.99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const edits = option(argv, '--edits', 20);
  const delayMs = option(argv, '--delay-ms', KUBELET_CONFIGMAP_DELAY_MS);
  const name = `bench-dns-change-${process.pid}`;
  const rig = await rigUp({ name, log: (l) => process.stderr.write(`${l}\n`) });
  let dns: WatchedDns | undefined;
  try {
    const clusters = ['alpha'];
    dns = await startWatchedDns({
      kubeconfig: rig.kubeconfig,
      owner: name,
      namespace: `bench-${randomBytes(3).toString('hex')}`,
      clusters,
      configMapDelayMs: delayMs,
      log: (l) => process.stderr.write(`${l}\n`),
    });
    const vlan: number[] = [];
    const pod: number[] = [];
    const both: number[] = [];
    console.log(`DNSServer edit → answered, ${edits} edits, ConfigMap propagation modelled at ${delayMs} ms`);
    for (let i = 0; i < edits; i++) {
      // alternately bravo's and charlie's records replace the other's: the probe is always a name just added
      const cluster = i % 2 === 0 ? 'bravo' : 'charlie';
      clusters.splice(1, 1, cluster);
      const t0 = performance.now();
      await dns.apply(clusters);
      const at: { v?: number; p?: number } = {};
      while (at.v === undefined || at.p === undefined) {
        const [v, p] = await dns.answers(cluster);
        const now = performance.now();
        if (v) at.v ??= now - t0;
        if (p) at.p ??= now - t0;
        if (now - t0 > delayMs + 30_000) throw new Error(`edit ${i}: not answered`);
        await new Promise((r) => setTimeout(r, 10));
      }
      vlan.push(at.v);
      pod.push(at.p);
      both.push(Math.max(at.v, at.p));
      console.log(
        `edit ${i + 1}: +${cluster}: vlan ${at.v.toFixed(0)} ms, pod-network ${at.p.toFixed(0)} ms`,
      );
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700)); // edits off the reload phase
    }
    console.log(`vlan view:        ${fmt(vlan)}`);
    console.log(`pod-network view: ${fmt(pod)}`);
    console.log(`both views:       ${fmt(both)}`);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await dns?.stop();
    await rigDown(name);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
