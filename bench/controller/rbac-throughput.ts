// How many of the DHCPServer's VMI-reader writes the apiserver takes per second with 8, 16 or 32 of them in flight:
// server-side applies (create) of one RoleBinding per namespace (the design since 2026-12-06: each binds the chart's
// ClusterRole) and, for comparison, of the Role-then-RoleBinding pair per namespace written before. Each round writes
// into its own --namespaces namespaces (fresh names, so every write is a create, as a new DHCPServer's are), the
// levels in alternating order (8 16 32 32 16 8 ...) so load drift hits each alike. Prints one line per round with
// the 1-minute load average. Not a timed test: run it by hand,
//   pnpm tsx bench/controller/rbac-throughput.ts [--namespaces 200] [--repeat 2] [--levels 8,16,32]
import { loadavg } from 'node:os';
import { KubeClient, type KubeConfigRest, mapLimited, type KubeObject } from '@oooi/kube';
import { RoleBindingKind, RoleKind } from '@oooi/controller';
import { runOnOwnRig } from './own-rig';

const arg = (flag: string, def: string): string => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
};
const NamespaceKind = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
const ClusterRoleKind = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
};
const rbac = 'rbac.authorization.k8s.io/v1';
const rule = { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances'], verbs: ['list', 'watch'] };
const subjects = [{ kind: 'ServiceAccount', name: 'oooi-dhcp-bench', namespace: 'clusters' }];

function binding(namespace: string, roleKind: 'Role' | 'ClusterRole'): KubeObject {
  return {
    apiVersion: rbac,
    kind: 'RoleBinding',
    metadata: { name: 'oooi-dhcp-vmi.bench', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: 'oooi-dhcp-vmi.bench' },
    subjects,
  };
}

/** Writes the VMI readers of NAMESPACES, CONCURRENCY namespaces at a time; returns the writes and the seconds. */
async function round(
  client: KubeClient,
  namespaces: readonly string[],
  concurrency: number,
  design: 'binding' | 'role+binding',
): Promise<{ writes: number; seconds: number }> {
  const t0 = performance.now();
  await mapLimited([...namespaces], concurrency, async (namespace) => {
    if (design === 'role+binding') {
      const role = { apiVersion: rbac, kind: 'Role', metadata: { name: 'oooi-dhcp-vmi.bench', namespace } };
      await client.apply(RoleKind, { ...role, rules: [rule] }, { force: true });
    }
    await client.apply(RoleBindingKind, binding(namespace, design === 'binding' ? 'ClusterRole' : 'Role'), {
      force: true,
    });
  });
  const writes = namespaces.length * (design === 'binding' ? 1 : 2);
  return { writes, seconds: (performance.now() - t0) / 1000 };
}

async function main(rest: KubeConfigRest): Promise<void> {
  const count = Number(arg('--namespaces', '200'));
  const repeat = Number(arg('--repeat', '2'));
  const levels = arg('--levels', '8,16,32').split(',').map(Number);
  const client = new KubeClient({ rest, fieldManager: 'bench-user' });
  await client.apply(
    ClusterRoleKind,
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'oooi-dhcp-vmi.bench' }, rules: [rule] },
    { force: true },
  );
  let set = 0;
  for (let r = 0; r < repeat; r++) {
    const order = r % 2 === 0 ? levels : [...levels].reverse();
    for (const level of order) {
      for (const design of ['binding', 'role+binding'] as const) {
        const namespaces = Array.from({ length: count }, (_, i) => `rb${set}-${i}`);
        set++;
        await mapLimited(namespaces, 32, (n) =>
          client.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }),
        );
        const before = loadavg()[0]!;
        const { writes, seconds } = await round(client, namespaces, level, design);
        process.stdout.write(
          `${design.padEnd(12)} in flight ${String(level).padStart(2)}: ${writes} writes in ` +
            `${seconds.toFixed(2)} s = ${(writes / seconds).toFixed(0).padStart(4)} writes/s, ` +
            `${(count / seconds).toFixed(0).padStart(4)} namespaces/s  load ${before.toFixed(1)} → ` +
            `${loadavg()[0]!.toFixed(1)}\n`,
        );
      }
    }
  }
}

runOnOwnRig('bench-rbac', main);
