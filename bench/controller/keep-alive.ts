// What keep-alive is worth on the rig's apiserver: sequential requests (a GET of one ConfigMap and a merge patch of
// it, alternating) through KubeConfigRest with keepAlive on (one agent, connections reused) and off (a new
// connection and TLS handshake per request, as client-node's own agent-per-call does), in interleaved rounds
// (A B, B A, …) on a control plane of its own. Not a timed test: run it by hand,
//   pnpm tsx bench/controller/keep-alive.ts [--requests 400] [--rounds 4]
// This process is pinned to CPU 1 and the control plane to CPU 0.
import { execFileSync } from 'node:child_process';
import { KubeClient, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import { readState, rigDown, rigUp } from '@oooi/rig';
import { pin } from './setup';

const ConfigMap = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' } as const;
const say = (line: string): void => void process.stdout.write(`${line}\n`);

function arg(flag: string, def: number): number {
  const i = process.argv.indexOf(flag);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${flag} needs a positive integer`);
  return v;
}

async function round(kubeconfig: string, keepAlive: boolean, requests: number): Promise<number> {
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(kubeconfig), keepAlive, qps: Infinity });
  const client = new KubeClient({ rest, fieldManager: 'bench-keepalive' });
  const ref = { namespace: 'default', name: 'bench-keepalive' };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    if (i % 2 === 0) await client.get(ConfigMap, ref);
    else await client.mergePatch(ConfigMap, ref, { data: { i: String(i) } });
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  rest.close();
  return requests / seconds;
}

async function main(): Promise<void> {
  const requests = arg('--requests', 400);
  const rounds = arg('--rounds', 4);
  const name = `bench-controller-keepalive-${process.pid}`;
  const rig = await rigUp({ name, log: (l) => process.stderr.write(`# ${l}\n`) });
  try {
    pin(readState(name), '0');
    execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    const setup = new KubeClient({
      rest: new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) }),
      fieldManager: 'bench-keepalive',
    });
    await setup.apply(
      ConfigMap,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench-keepalive', namespace: 'default' } },
      { force: true },
    );
    const rates: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let r = 0; r < rounds; r++) {
      const order: Array<'on' | 'off'> = r % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const mode of order) rates[mode].push(await round(rig.kubeconfig, mode === 'on', requests));
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    say(
      `# keep-alive A/B, ${rounds} interleaved rounds of ${requests} sequential requests (GET / merge patch)`,
    );
    say(
      `keep-alive on : ${rates.on.map((x) => x.toFixed(0)).join(', ')} req/s (median ${median(rates.on).toFixed(0)})`,
    );
    say(
      `keep-alive off: ${rates.off.map((x) => x.toFixed(0)).join(', ')} req/s (median ${median(rates.off).toFixed(0)})`,
    );
    say(`ratio on/off  : ${(median(rates.on) / median(rates.off)).toFixed(2)}`);
  } finally {
    await rigDown(name);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
