// The rig's control plane is a real Kubernetes: healthy apiserver, CRDs Established, garbage collection,
// Deployments Available through kwok, server-side apply conflicts between field managers.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { defaultCrdDirs, e2eKubeConfig, readCrds, repoRoot, waitFor } from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

const kc = e2eKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
const ns = 'rig-control-plane';

async function gone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (err) {
    if (err instanceof k8s.ApiException && err.code === 404) return true;
    throw err;
  }
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await core.deleteNamespace({ name: ns });
});

describe('the rig control plane', () => {
  it('has a healthy apiserver of the pinned version', async () => {
    expect(await new k8s.Health(kc).readyz({})).toBe(true);
    const v = await kc.makeApiClient(k8s.VersionApi).getCode();
    expect(v.gitVersion).toMatch(/^v1\.34\./);
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['kwok-node-0']);
  });

  it('has every CRD of crds/ and of the third-party test CRDs Established', async () => {
    const want = (await readCrds(defaultCrdDirs())).map((c) => c.name);
    const repoCrdFiles = readdirSync(join(repoRoot, 'crds')).filter((f) => /\.ya?ml$/.test(f));
    const fromRepo = await readCrds([join(repoRoot, 'crds')]);
    expect(fromRepo.length).toBeGreaterThanOrEqual(repoCrdFiles.length);
    const list = await ext.listCustomResourceDefinition();
    const established = new Set(
      list.items
        .filter((c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True'))
        .map((c) => c.metadata?.name),
    );
    for (const name of want) expect(established).toContain(name);
    for (const name of [
      'hostedclusters.hypershift.openshift.io',
      'nodepools.hypershift.openshift.io',
      'machines.cluster.x-k8s.io',
      'virtualmachineinstances.kubevirt.io',
      'virtualmachines.kubevirt.io',
      'network-attachment-definitions.k8s.cni.cncf.io',
      'metallbs.metallb.io',
      'ipaddresspools.metallb.io',
      'l2advertisements.metallb.io',
      'subscriptions.operators.coreos.com',
    ]) {
      expect(established).toContain(name);
    }
  });

  it('stores a third-party object and writes its status through the status subresource', async () => {
    const vmi = { group: 'kubevirt.io', version: 'v1', namespace: ns, plural: 'virtualmachineinstances' };
    await custom.createNamespacedCustomObject({
      ...vmi,
      body: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachineInstance',
        metadata: { name: 'vm1' },
        spec: { domain: {} },
      },
    });
    await custom.patchNamespacedCustomObjectStatus(
      {
        ...vmi,
        name: 'vm1',
        body: {
          status: { interfaces: [{ name: 'vlan', ipAddress: '198.51.100.20', mac: '02:00:00:00:00:01' }] },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const got = (await custom.getNamespacedCustomObject({ ...vmi, name: 'vm1' })) as {
      status?: { interfaces?: { ipAddress?: string }[] };
    };
    expect(got.status?.interfaces?.[0]?.ipAddress).toBe('198.51.100.20');
  });

  it('garbage-collects a child when its third-party owner is deleted', async () => {
    const hc = {
      group: 'hypershift.openshift.io',
      version: 'v1beta1',
      namespace: ns,
      plural: 'hostedclusters',
    };
    const owner = (await custom.createNamespacedCustomObject({
      ...hc,
      body: {
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'HostedCluster',
        metadata: { name: 'hc1' },
        spec: {},
      },
    })) as { metadata: { uid: string } };
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        metadata: {
          name: 'owned',
          ownerReferences: [
            {
              apiVersion: 'hypershift.openshift.io/v1beta1',
              kind: 'HostedCluster',
              name: 'hc1',
              uid: owner.metadata.uid,
              controller: true,
            },
          ],
        },
        data: { k: 'v' },
      },
    });
    await custom.deleteNamespacedCustomObject({ ...hc, name: 'hc1' });
    await waitFor(
      'the owned ConfigMap to be collected',
      () => gone(() => core.readNamespacedConfigMap({ name: 'owned', namespace: ns })),
      {
        timeoutMs: 20_000,
        everyMs: 100,
      },
    );
  });

  it('makes a Deployment Available through kwok', async () => {
    await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'registry.invalid/web:1' }] },
          },
        },
      },
    });
    await waitFor(
      'Deployment web Available',
      async () => {
        const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
        return (
          d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true &&
          d.status.availableReplicas === 2
        );
      },
      { timeoutMs: 30_000, everyMs: 100 },
    );
    const pods = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' });
    expect(pods.items.map((p) => [p.spec?.nodeName, p.status?.phase])).toEqual([
      ['kwok-node-0', 'Running'],
      ['kwok-node-0', 'Running'],
    ]);
  });

  it('reports a server-side apply conflict naming the other field manager', async () => {
    const cm = (v: string): k8s.KubernetesObject & { data: Record<string, string> } => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa', namespace: ns },
      data: { key: v },
    });
    await objects.patch(cm('a'), undefined, undefined, 'manager-a', false, k8s.PatchStrategy.ServerSideApply);
    let caught: unknown;
    try {
      await objects.patch(
        cm('b'),
        undefined,
        undefined,
        'manager-b',
        false,
        k8s.PatchStrategy.ServerSideApply,
      );
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(k8s.ApiException);
    const e = caught as k8s.ApiException<unknown>;
    expect(e.code).toBe(409);
    const status = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as {
      reason?: string;
      message?: string;
    };
    expect(status.reason).toBe('Conflict');
    expect(status.message).toMatch(/conflict with "manager-a": \.data\.key/);
    // forcing takes the field over
    await objects.patch(cm('b'), undefined, undefined, 'manager-b', true, k8s.PatchStrategy.ServerSideApply);
    const now = await core.readNamespacedConfigMap({ name: 'ssa', namespace: ns });
    expect(now.data?.key).toBe('b');
  });
});
