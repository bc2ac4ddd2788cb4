// How long the apiserver takes to accept one large child (the ProxyServer and DNSServer an Infra of 200
// attachments plans): server-side apply (create, unchanged, changed), a dry run, a merge patch, a status apply and
// a GET; each timed from the client, with the CPU the kube-apiserver process used meanwhile (/proc) and the load
// average; at the end, the apiserver's own mean handling and etcd times per verb (its /metrics). Not a timed
// test: run it by hand,
//   pnpm tsx bench/controller/apply-cost.ts [--attachments 200] [--repeat 3]
// OOOI_BENCH_CRDS=DIR installs our CRDs from DIR instead of crds/ (to compare schema variants).
import { loadavg } from 'node:os';
import {
  ApplyPatchContentType,
  KubeClient,
  type KubeConfigRest,
  MergePatchContentType,
  resourcePath,
  type KubeObject,
} from '@oooi/kube';
import { expectedFor } from './plan';
import { applyAll } from './setup';
import { infraName, kinds, ns, sharedItems } from './world';
import { runOnOwnRig } from './own-rig';
import { apiserverMetrics, cpuSeconds, labelsOf } from './observe';
import { rigPids } from './processes';
import { rigBin, type Rig } from '@oooi/rig';

const arg = (flag: string, def: number): number => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

/**
 * The apiserver's own account of where the time went, from its /metrics: mean handling time per verb of the two
 * kinds (apiserver_request_duration_seconds, request received → response written) and mean etcd time per operation
 * on them (etcd_request_duration_seconds). What the client saw beyond the first is on the connection or the client.
 */
async function serverSideTimes(rig: Rig): Promise<string> {
  const text = await apiserverMetrics(await rigBin('kubectl'), rig.kubeconfig);
  const sums = new Map<string, { sum: number; count: number }>();
  for (const line of text.split('\n')) {
    const m =
      /^(apiserver_request_duration_seconds|etcd_request_duration_seconds)_(sum|count)\{(.*)\} (\S+)$/.exec(
        line,
      );
    if (!m) continue;
    const labels = labelsOf(m[3]!);
    const res = labels.resource ?? labels.type ?? '';
    if (!/proxyservers|dnsservers/.test(res)) continue;
    const key = `${m[1] === 'etcd_request_duration_seconds' ? 'etcd' : 'apiserver'} ${labels.verb ?? labels.operation} ${res}${labels.subresource ? `/${labels.subresource}` : ''}`;
    const e = sums.get(key) ?? { sum: 0, count: 0 };
    if (m[2] === 'sum') e.sum += Number(m[4]);
    else e.count += Number(m[4]);
    sums.set(key, e);
  }
  return [...sums]
    .filter(([, e]) => e.count > 0)
    .map(
      ([k, e]) =>
        `${k.padEnd(60)} ${String(e.count).padStart(4)} × ${((e.sum / e.count) * 1000).toFixed(0).padStart(6)} ms mean\n`,
    )
    .join('');
}

async function main(rest: KubeConfigRest, rig: Rig): Promise<void> {
  const apiserverPid = rigPids(rig).get('apiserver');
  const apiserverCpu = (): number => (apiserverPid === undefined ? NaN : cpuSeconds(apiserverPid));
  const n = arg('--attachments', 200);
  const repeat = arg('--repeat', 3);
  const client = new KubeClient({ rest, fieldManager: 'bench-user' });
  const shared = sharedItems(1);
  await applyAll(client, shared, 1);
  const infra = (await client.get(kinds.Infra, { namespace: ns, name: infraName(0) }))!;
  const svcName = shared.find((it) => it.kind === 'Service')!.body.metadata!.name!;
  const service = (await client.get(kinds.Service, { namespace: ns, name: svcName }))!;
  const e = expectedFor(n, { infras: [infra], service }).infras[0]!;
  for (const [label, kind, child] of [
    ['ProxyServer', kinds.ProxyServer, e.plan.children.proxy],
    ['DNSServer', kinds.DNSServer, e.plan.children.dns],
  ] as const) {
    if (child.action !== 'apply') throw new Error(`${label} not planned`);
    const body = child.object as unknown as KubeObject;
    const path = resourcePath(kind, { namespace: ns, name: body.metadata!.name });
    const bytes = JSON.stringify(body).length;
    const time = async (what: string, req: Parameters<typeof rest.request>[0]): Promise<void> => {
      const c0 = apiserverCpu();
      const t0 = performance.now();
      await rest.request(req);
      const ms = performance.now() - t0;
      const cpuMs = (apiserverCpu() - c0) * 1000;
      process.stdout.write(
        `${label} (${bytes} bytes) ${what.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms (apiserver CPU ${cpuMs.toFixed(0).padStart(5)} ms)  load ${loadavg()[0]!.toFixed(1)}\n`,
      );
    };
    const apply = (b: KubeObject, dryRun?: 'All') => ({
      method: 'PATCH' as const,
      path,
      query: { fieldManager: 'oooi-controller', force: true, ...(dryRun ? { dryRun } : {}) },
      body: b,
      contentType: ApplyPatchContentType,
    });
    const changed = (k: number): KubeObject => ({
      ...body,
      metadata: { ...body.metadata, labels: { ...body.metadata?.labels, edit: String(k) } },
    });
    await time('apply (create)', apply(body));
    for (let k = 0; k < repeat; k++) {
      await time('apply (unchanged)', apply(body));
      await time('apply (one label changed)', apply(changed(k)));
      await time('apply dry run (changed)', apply(changed(k + 100), 'All'));
      await time('merge patch (one label)', {
        method: 'PATCH',
        path,
        query: { fieldManager: 'other' },
        body: { metadata: { labels: { other: String(k) } } },
        contentType: MergePatchContentType,
      });
      await time('status apply (one condition)', {
        method: 'PATCH',
        path: `${path}/status`,
        query: { fieldManager: 'oooi-controller', force: true },
        body: {
          apiVersion: body.apiVersion,
          kind: body.kind,
          metadata: { name: body.metadata!.name, namespace: ns },
          status: {
            observedGeneration: k + 1,
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'Bench',
                message: String(k),
                lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              },
            ],
          },
        },
        contentType: ApplyPatchContentType,
      });
      await time('GET', { method: 'GET', path });
    }
  }
  process.stdout.write(await serverSideTimes(rig));
}

runOnOwnRig('bench-apply-cost', main);
