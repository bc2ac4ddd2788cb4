// The pure planning cost of one Infra of N attachments, in-process (no apiserver): planInfra over the bench's world
// (world.ts), the objects a cache would hold, and the size of the DNSServer and ProxyServer it plans.
//
//   pnpm tsx bench/controller/plan-cost.ts [--attachments 200] [--repeat 20]
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { builtinImages, planInfra } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { attachment, clusterItems, infra, ns, sharedItems } from './world';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const n = arg('--attachments', 200);
const repeat = arg('--repeat', 20);

const stamp = (o: KubeObject): KubeObject => ({
  ...o,
  metadata: {
    namespace: ns,
    resourceVersion: '1',
    generation: 1,
    uid: `u-${o.metadata?.name ?? ''}`,
    ...o.metadata,
  },
});
const items = Array.from({ length: n }, (_, i) => i).flatMap(clusterItems);
const withStatus = (kind: string): KubeObject[] =>
  items.filter((it) => it.kind === kind).map((it) => stamp({ ...it.body, status: it.status }));
const service = sharedItems(1).find((it) => it.kind === 'Service');
const world = {
  infra: stamp(infra(0)) as unknown as Infra,
  attachments: Array.from({ length: n }, (_, i) => stamp(attachment(i)) as unknown as InfraClusterAttachment),
  nodePools: withStatus('NodePool'),
  machines: withStatus('Machine'),
  services: service ? [stamp(service.body)] : [],
  children: {},
  images: builtinImages,
};

function time(what: string, fn: () => unknown): number {
  fn();
  const t0 = performance.now();
  for (let r = 0; r < repeat; r++) fn();
  const ms = (performance.now() - t0) / repeat;
  console.log(`${what}: ${ms.toFixed(1)} ms`);
  return ms;
}

console.log(`# ${n} attachments on one Infra, ${repeat} rounds, load ${loadavg()[0]!.toFixed(1)}`);
const plan = planInfra(world);
time('planInfra', () => planInfra(world));
for (const c of ['dns', 'proxy'] as const) {
  const child = plan.children[c];
  if (child.action === 'apply')
    console.log(`${c}: ${JSON.stringify(child.object).length} characters of JSON`);
}
