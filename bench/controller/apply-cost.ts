// How long the apiserver takes to accept one large child (the ProxyServer and DNSServer an Infra of 200
// attachments plans): server-side apply (create, unchanged, changed), a merge patch of the same change, and a
// dry run; each timed from the client, with the load average. Not a timed test: run it by hand,
//   pnpm tsx bench/controller/apply-cost.ts [--attachments 200] [--repeat 3]
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

const arg = (flag: string, def: number): number => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

async function main(rest: KubeConfigRest): Promise<void> {
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
      const t0 = performance.now();
      await rest.request(req);
      const ms = performance.now() - t0;
      process.stdout.write(
        `${label} (${bytes} bytes) ${what.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  load ${loadavg()[0]!.toFixed(1)}\n`,
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
      await time('GET', { method: 'GET', path });
    }
  }
}

runOnOwnRig('bench-apply-cost', main);
