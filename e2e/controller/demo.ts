// The controller demo (`pnpm --silent exec tsx e2e/controller/demo.ts`): starts a throw-away control plane with the
// rig (crds/ installed), applies the examples, runs the real `oooi-controller` process on them until it converges,
// prints what a user would check with kubectl — the objects with their printer columns, the ProxyServer's routing
// table and the Infra's status — then stops the controller (SIGTERM, graceful) and the control plane.
import { spawn, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { repoRoot, rigBin, rigDown, rigUp } from '@oooi/rig';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import { kinds, NamespaceKind, type KindName } from './support';

const run = promisify(execFile);
const name = 'controller-demo';
const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function converged(client: KubeClient): Promise<boolean> {
  const infra = await client.get(kinds.Infra, { namespace: 'clusters', name: 'vlan100' });
  const status = infra?.status as
    { observedGeneration?: number; attachments?: { total: number } } | undefined;
  const proxy = await client.get(kinds.ProxyServer, { namespace: 'clusters', name: 'vlan100-proxy' });
  return status?.observedGeneration === 1 && status.attachments?.total === 2 && proxy !== undefined;
}

async function main(): Promise<void> {
  say('# starting a control plane (kube-apiserver, etcd, controller-manager, kwok) with crds/ installed');
  const rig = await rigUp({ name, log: (l) => process.stderr.write(`${l}\n`) });
  const kubectl = async (...args: string[]): Promise<void> => {
    say(`\n$ kubectl ${args.join(' ')}`);
    const res = await run(await rigBin('kubectl'), ['--kubeconfig', rig.kubeconfig, ...args]);
    say(res.stdout.trimEnd());
  };
  let controller: ReturnType<typeof spawn> | undefined;
  try {
    const client = new KubeClient({
      rest: new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) }),
      fieldManager: 'demo-user',
    });
    await client.apply(NamespaceKind, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'clusters' },
    });
    for (const file of ['infra.yaml', 'attachments.yaml']) {
      for (const doc of parseAllDocuments(readFileSync(join(repoRoot, 'examples', file), 'utf8'))) {
        const obj = doc.toJS() as KubeObject;
        await client.apply(kinds[obj.kind as KindName], obj, { force: true });
      }
      say(`# applied examples/${file}`);
    }
    // The pod-network view needs internalProxyService's Service; the ProxyServer reconciler will create it.
    await client.apply(kinds.Service, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'vlan100-proxy', namespace: 'clusters' },
      spec: { ports: [{ name: 'proxy', port: 443 }] },
    });
    say('# created Service clusters/vlan100-proxy (stands in for the ProxyServer workload)');
    const main = join(repoRoot, 'packages/controller/src/main.ts');
    const tsx = join(repoRoot, 'node_modules/tsx/dist/loader.mjs');
    controller = spawn(
      process.execPath,
      [
        '--import',
        tsx,
        main,
        '--kubeconfig',
        rig.kubeconfig,
        '--namespace',
        'clusters',
        '--leader-election-namespace',
        'clusters',
        '--health-address',
        '0',
        '--metrics-address',
        '0',
        '--log-level',
        'warn',
      ],
      { stdio: ['ignore', process.stderr, 'inherit'] },
    );
    say('# oooi-controller running; waiting until it converges');
    const t0 = Date.now();
    while (!(await converged(client))) {
      if (Date.now() - t0 > 60_000) throw new Error('the controller did not converge within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1500));
    say(`# converged in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await kubectl(
      '-n',
      'clusters',
      'get',
      'infras,infraclusterattachments,dhcpservers,dnsservers,proxyservers',
    );
    await kubectl(
      '-n',
      'clusters',
      'get',
      'proxyserver',
      'vlan100-proxy',
      '-o',
      'jsonpath={range .spec.backends[*]}{.name}{"\\t"}{.hostname}:{.port} -> {.targetService}.{.targetNamespace}:{.targetPort}{"\\n"}{end}',
    );
    await kubectl('-n', 'clusters', 'get', 'infra', 'vlan100', '-o', 'yaml');
  } finally {
    if (controller && controller.exitCode === null) {
      const exited = new Promise<number | null>((resolve) => controller!.once('exit', resolve));
      controller.kill('SIGTERM');
      say(`\n# oooi-controller stopped on SIGTERM, exit code ${String(await exited)}`);
    }
    await rigDown(name);
    say('# control plane stopped');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
