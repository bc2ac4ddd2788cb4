// Rig lifecycle: a second control plane beside the first, an apiserver restart, `down` leaving nothing behind,
// and the CLI contract (`rig up` prints the kubeconfig path last, the same path again on a running name).
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import {
  e2eEnv,
  e2eKubeConfig,
  freePorts,
  isAlive,
  listNetns,
  netnsPrefix,
  openNetScope,
  readState,
  repoRoot,
  rigDown,
  rigRestart,
  rigUp,
  run,
  runDir,
  waitFor,
  type PickPorts,
  type RunState,
} from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

/** Holds 127.0.0.1:PORT (as some other process would) until released; hangs up on whoever connects. */
function squat(port: number): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const s = createServer((conn) => conn.destroy()); // an unread socket would keep close() waiting forever
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(() => new Promise<void>((r) => s.close(() => r()))));
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function expectNothingLeft(s: RunState): Promise<void> {
  for (const c of Object.values(s.components)) expect(c?.proc !== undefined && isAlive(c.proc)).toBe(false);
  for (const p of Object.values(s.ports)) expect(await portFree(p)).toBe(true);
  expect((await listNetns()).filter((n) => n.startsWith(netnsPrefix(s.name)))).toEqual([]);
  expect(existsSync(s.dir)).toBe(false);
}

const cli = (args: string[]) =>
  run(
    [join(repoRoot, 'node_modules', '.bin', 'tsx'), join(repoRoot, 'e2e', 'rig', 'src', 'cli.ts'), ...args],
    {
      timeoutMs: 120_000,
    },
  );

describe('rig lifecycle', () => {
  const first = e2eEnv();
  const second = `${first.rig}-b`;
  const viaCli = `${first.rig}-cli`;
  const clash = `${first.rig}-clash`;
  afterAll(async () => {
    await rigDown(second);
    await rigDown(viaCli);
    await rigDown(clash);
  });

  it('runs a second control plane beside the first, independent of it', async () => {
    const b = await rigUp({ name: second });
    expect(b.server).not.toBe(readState(first.rig)?.server);
    const coreB = e2eKubeConfig(b.kubeconfig).makeApiClient(k8s.CoreV1Api);
    const coreA = e2eKubeConfig().makeApiClient(k8s.CoreV1Api);
    await coreB.createNamespace({ body: { metadata: { name: 'only-in-b' } } });
    await expect(coreA.readNamespace({ name: 'only-in-b' })).rejects.toMatchObject({ code: 404 });
    expect((await rigUp({ name: second })).kubeconfig).toBe(b.kubeconfig); // already running: same rig
  });

  it('restarts the apiserver on the same port, keeping the data', async () => {
    const before = readState(second)!;
    await rigRestart(second, 'apiserver');
    const after = readState(second)!;
    expect(after.components.apiserver?.proc?.pid).not.toBe(before.components.apiserver?.proc?.pid);
    expect(after.server).toBe(before.server);
    expect(isAlive(before.components.apiserver!.proc!)).toBe(false);
    const kc = e2eKubeConfig(after.kubeconfig);
    expect(await new k8s.Health(kc).readyz({})).toBe(true);
    const ns = await kc.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'only-in-b' });
    expect(ns.metadata?.name).toBe('only-in-b');
  });

  it('restarts kwok, which takes the fake node over at once (pods of a new Deployment run)', async () => {
    await rigRestart(second, 'kwok');
    const kc = e2eKubeConfig(readState(second)!.kubeconfig);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: 'only-in-b',
      body: {
        metadata: { name: 'after-restart' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'x' } },
          template: {
            metadata: { labels: { app: 'x' } },
            spec: { containers: [{ name: 'x', image: 'registry.invalid/x:1' }] },
          },
        },
      },
    });
    await waitFor(
      'Deployment Available after the kwok restart',
      async () => {
        const d = await apps.readNamespacedDeployment({ name: 'after-restart', namespace: 'only-in-b' });
        return d.status?.availableReplicas === 1;
      },
      { timeoutMs: 15_000, everyMs: 100 },
    );
  });

  it('rigDown stops every recorded process, frees the ports, deletes the namespaces and the directory', async () => {
    const scope = openNetScope(second);
    const netns = await scope.createNamespace('left');
    const helper = netns.spawn(['sleep', '300'], { label: 'sleeper' });
    const s = readState(second)!;
    const result = await rigDown(second);
    expect(result).toMatchObject({ stoppedComponents: 5, stoppedHelpers: 1, deletedNetns: 1 });
    expect(helper.alive()).toBe(false);
    await expectNothingLeft(s);
  });

  it('CLI: `rig up` prints the kubeconfig path last (the same again), `rig down` frees everything', async () => {
    const up = await cli(['up', '--name', viaCli]);
    expect(up.code).toBe(0);
    const path = up.stdout.trim().split('\n').pop();
    expect(path).toBe(join(runDir(viaCli), 'kubeconfig'));
    expect(existsSync(path!)).toBe(true);
    const again = await cli(['up', '--name', viaCli]);
    expect(again.stdout.trim()).toBe(path);
    const status = await cli(['status', '--name', viaCli, '--json']);
    expect(
      (JSON.parse(status.stdout) as { components: { alive: boolean }[] }).components.every((c) => c.alive),
    ).toBe(true);
    const s = readState(viaCli)!;
    const down = await cli(['down', '--name', viaCli]);
    expect(down.code).toBe(0);
    await expectNothingLeft(s);
  });

  it('starts a component again on a fresh port when another process took its port before it bound it', async () => {
    const [taken = 0] = await freePorts(1);
    const release = await squat(taken);
    const calls: string[][] = [];
    // the first choice hands the apiserver the squatted port, as a racing process would have left it
    const pickPorts: PickPorts = async (names, avoid) => {
      calls.push([...names]);
      const fresh = await freePorts(names.length, { avoid: [...avoid, taken] });
      return names.map((n, i) => (calls.length === 1 && n === 'apiserver' ? taken : fresh[i]!));
    };
    const lines: string[] = [];
    try {
      const r = await rigUp({ name: clash, pickPorts, log: (l) => lines.push(l) });
      expect(calls).toEqual([
        ['etcd', 'etcdPeer', 'apiserver', 'controllerManager', 'scheduler'],
        ['apiserver'],
      ]);
      expect(lines.join('\n')).toContain(`apiserver lost port ${taken}`);
      const s = readState(clash)!;
      expect(r.server).toBe(`https://127.0.0.1:${s.ports.apiserver}`);
      expect(s.ports.apiserver).not.toBe(taken);
      expect(readFileSync(s.components.apiserver!.logFile, 'utf8')).toMatch(
        new RegExp(`127\\.0\\.0\\.1:${taken}: bind: address already in use`),
      );
      // the kubeconfig was rewritten for the new port, and the components started after it use it
      const kc = e2eKubeConfig(r.kubeconfig);
      expect(await new k8s.Health(kc).readyz({})).toBe(true);
      const node = await kc.makeApiClient(k8s.CoreV1Api).readNode({ name: 'kwok-node-0' });
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    } finally {
      await release();
      await rigDown(clash);
    }
  });
});
