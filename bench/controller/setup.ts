// Putting the world in place: applies many objects with bounded concurrency (a status subresource second), waits
// until the control plane has finished reacting (kube-controller-manager fills every new namespace with its
// ServiceAccount and root-CA ConfigMap), and pins the control plane's processes to one CPU.
import { execFileSync } from 'node:child_process';
import type { RunState } from '@oooi/rig';
import type { KubeClient } from '@oooi/kube';
import { apiserverWrites, diffCounts, total } from './observe';
import { kinds, type Item } from './world';

/** Applies every item (server-side apply, force), `concurrency` at a time; status after the object. */
export async function applyAll(client: KubeClient, items: readonly Item[], concurrency = 32): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      const kind = kinds[item.kind];
      await client.apply(kind, item.body, { force: true });
      if (item.status !== undefined) {
        const { apiVersion, kind: k, metadata } = item.body;
        const body = {
          apiVersion,
          kind: k,
          metadata: { name: metadata?.name, namespace: metadata?.namespace },
        };
        await client.applyStatus(kind, { ...body, status: item.status }, { force: true });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Waits until the apiserver counts no write (Leases and Nodes aside) for 3 s in a row, at most `timeoutMs`. */
export async function settle(kubectl: string, kubeconfig: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await apiserverWrites(kubectl, kubeconfig);
  for (;;) {
    await new Promise((r) => setTimeout(r, 3000));
    const now = await apiserverWrites(kubectl, kubeconfig);
    const moved = [...diffCounts(last, now).keys()].filter((k) => !/ (leases|nodes(\/status)?)$/.test(k));
    if (moved.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the control plane kept writing: ${moved.join(', ')}`);
    last = now;
  }
}

/** Pins every process of the rig run to `cpus` (taskset list syntax). */
export function pin(state: RunState | undefined, cpus: string): void {
  for (const component of Object.values(state?.components ?? {})) {
    const pid = component?.proc?.pid;
    if (pid) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  }
}

export { total };
