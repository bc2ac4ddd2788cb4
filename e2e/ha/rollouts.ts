// A diagnostic program for the proxy's HA rollouts (run with tsx, as root, the rig installed; not a test): the sandbox
// with every component in HA mode (world.ts), a VM opening a verified TLS connection to serverIP every 50 ms, and N
// rollouts of the proxy (the Envoy image alternating between two tags), each waited for until both replica
// Deployments are rolled out and available, with tcpdump on the VLAN bridge the whole time. It prints every failed
// connection, and from the capture every priority-0 VRRP advert (a holder giving serverIP away) with the time to the
// next gratuitous ARP for serverIP (the new holder taking it); the capture stays in --out for tcpdump -r -e.
// How the captures behind docs/high-availability.md "How the address moves" were made.
//   OOOI_E2E_IMAGE_VERSION=0.1.0-rollouts tsx e2e/ha/rollouts.ts [--rollouts 8] [--out DIR]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeploymentKind } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { waitFor } from '@oooi/rig';
import { kinds } from '../controller/support';
import { runSandbox, type SandboxWorld } from '../sandbox/sandbox';
import { ROLLED_ENVOY_IMAGE } from './components';
import { startProbe } from './probe/probe';
import { HA, INFRA } from './world';

const argOf = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ROLLOUTS = Number(argOf('--rollouts') ?? 8);
const OUT = argOf('--out') ?? mkdtempSync(join(tmpdir(), 'oooi-rollouts-'));
const IMAGES = [ROLLED_ENVOY_IMAGE, 'docker.io/envoyproxy/envoy:v1.36.4'];
const say = (line: string) => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Deployment = KubeObject & {
  spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  status?: { observedGeneration?: number; updatedReplicas?: number; availableReplicas?: number };
};

const rolledTo = (d: Deployment | undefined, image: string) =>
  d?.spec?.template?.spec?.containers?.some((c) => c.image === image) === true &&
  (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
  d.status?.updatedReplicas === 1 &&
  d.status?.availableReplicas === 1;

/** `HH:MM:SS.micro` of each priority-0 advert, with the ms to the next gratuitous ARP for SERVER_IP. */
function moves(pcap: string, serverIP: string): string[] {
  const read = (filter: string) =>
    spawnSync('tcpdump', ['-r', pcap, '-nn', '-tttt', filter], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((l) => l !== '');
  const secs = (l: string) => {
    const [h, m, s] = (l.split(' ')[1] ?? '0:0:0').split(':').map(Number);
    return h! * 3600 + m! * 60 + s!;
  };
  const garps = read('arp').filter((l) =>
    l.includes(`who-has ${serverIP} (ff:ff:ff:ff:ff:ff) tell ${serverIP}`),
  );
  return read('ip proto 112')
    .filter((l) => l.includes('prio 0,'))
    .map((l) => {
      const next = garps.find((g) => secs(g) >= secs(l));
      const ms = next === undefined ? 'none' : `${Math.round((secs(next) - secs(l)) * 1000)} ms`;
      return `${l.split(' ')[1]} priority-0 advert; gratuitous ARP for ${serverIP} after ${ms}`;
    });
}

async function rollouts(w: SandboxWorld): Promise<void> {
  const namespace = w.infra.metadata!.namespace!;
  const proxy = (w.infra.spec as { infraComponents: { proxy: { serverIP: string } } }).infraComponents.proxy;
  const cluster = w.clusters[0]!;
  const vm = await startProbe(w.scope, w.vlan, {
    client: 'vm-rollouts',
    limitMs: 60 * 60_000,
    tls: {
      address: proxy.serverIP,
      port: 6443,
      servername: `api.${cluster.domain}`,
      caFile: cluster.caFile,
      everyMs: 50,
      timeoutMs: 3000,
    },
  });
  const pcap = join(OUT, 'vlan-bridge.pcap');
  const capture = spawn(
    'ip',
    ['netns', 'exec', w.vlan.bridgeNs, 'tcpdump', '-i', 'br0', '-nn', '-s', '160', '-w', pcap],
    {
      stdio: 'ignore',
    },
  );
  await sleep(2000);
  let infra = w.infra;
  for (let i = 0; i < ROLLOUTS; i++) {
    const image = IMAGES[i % 2]!;
    infra = structuredClone(infra);
    const c = (infra.spec as { infraComponents: Record<string, Record<string, unknown>> }).infraComponents;
    c.proxy = { ...c.proxy, proxyImage: image };
    say(`rollout ${i + 1} of ${ROLLOUTS}: Envoy ${image}`);
    await w.admin.apply(kinds.Infra, infra, { force: true });
    await waitFor(
      `rollout ${i + 1}`,
      async () => {
        for (const k of w.kubelets) k.check();
        const names = [`${INFRA}-proxy`, `${INFRA}-proxy-1`];
        const ds = await Promise.all(
          names.map((name) => w.admin.get<Deployment>(DeploymentKind, { namespace, name })),
        );
        return ds.every((d) => rolledTo(d, image));
      },
      { timeoutMs: 300_000, everyMs: 250 },
    );
    await sleep(4000);
  }
  const ops = await vm.stop();
  capture.kill('SIGINT');
  await sleep(1000);
  const failed = ops.filter((o) => !o.ok);
  const lines = [
    `# ${ROLLOUTS} proxy rollouts: ${ops.length} TLS connections, ${failed.length} failed; capture ${pcap}`,
    ...failed.map(
      (o) => `${new Date(o.start).toISOString()} failed after ${o.end - o.start} ms: ${o.detail}`,
    ),
    ...moves(pcap, proxy.serverIP),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

runSandbox({
  name: 'ha-rollouts',
  runtime: 'podman',
  ...HA,
  nodes: 5,
  readiness: 'probes',
  say,
  progress: say,
  beforeTeardown: async (_kubeconfig, world) => rollouts(world),
}).catch((err: unknown) => {
  say(`rollouts: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
