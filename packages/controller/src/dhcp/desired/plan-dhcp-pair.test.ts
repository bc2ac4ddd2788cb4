// The hot-standby pair's plan (spec.networkConfig.standbyServerIP): a golden of every object, then each rule of
// dhcp-pair-workload.ts on its own.
import { stringify } from 'yaml';
import type { DHCPServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { expectGolden } from '@oooi/api/testing';
import { exampleDhcpServer } from '../testing/fixtures';
import { pairDhcpServer, STANDBY_IP } from '../testing/pair';
import { planDhcpServer, type DhcpServerPlan } from './plan-dhcp-server';
import { deploymentRolledOut, podTemplateHash } from '../../workload/rollout-gate';

function plan(input: DHCPServer, observed: Record<string, KubeObject> = {}): DhcpServerPlan {
  const r = planDhcpServer(input, { observedDeployments: observed });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}
type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const pod = (d: KubeObject | undefined): Spec => (d?.spec as Spec).template.spec as Spec;
const objects = (r: DhcpServerPlan) => r.objects.map((o) => `${String(o.kind)} ${o.metadata?.name ?? ''}`);
/** A Deployment as the apiserver would hold it after the gate's body, rolled out and available. */
const live = (d: KubeObject): KubeObject => ({
  ...d,
  metadata: { ...d.metadata, generation: 1 },
  status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
});

describe('planDhcpServer with a standby (the hot-standby pair)', () => {
  test('golden: every object, both Deployments, both configs in the one ConfigMap', () =>
    expectGolden(
      __dirname,
      'pair.yaml',
      plan(pairDhcpServer())
        .objects.map((o) => stringify(o))
        .join('---\n'),
    ));

  test('a second Deployment <w>-1 and a second claim; no Secret in the plan (its value is the reconciler’s)', () => {
    expect(objects(plan(pairDhcpServer()))).toEqual([
      'ServiceAccount lab-dhcp',
      'Role lab-dhcp-status',
      'RoleBinding lab-dhcp-status',
      'ConfigMap lab-dhcp-config',
      'PersistentVolumeClaim lab-dhcp-leases',
      'PersistentVolumeClaim lab-dhcp-1-leases',
      'Service lab-dhcp',
      'NetworkPolicy lab-dhcp',
      'Deployment lab-dhcp',
      'Deployment lab-dhcp-1',
      'RoleBinding oooi-dhcp-vmi.lab.lab-dhcp',
    ]);
    const emptyDir = plan(pairDhcpServer({ leaseStorage: undefined }));
    expect(pod(emptyDir.children.standbyDeployment).volumes[1]).toEqual({ name: 'leases', emptyDir: {} });
  });

  test('each pod on its own address, its own config key, the Secret read-only, the port 647, apart from the other', () => {
    const r = plan(pairDhcpServer());
    const primary = pod(r.children.deployment);
    const standby = pod(r.children.standbyDeployment);
    const multus = (d: KubeObject) =>
      String((d.spec as Spec).template.metadata.annotations['k8s.v1.cni.cncf.io/networks']);
    expect(multus(r.children.deployment)).toContain('"198.51.100.2/25"');
    expect(multus(r.children.standbyDeployment!)).toContain(`"${STANDBY_IP}/25"`);
    expect(primary.containers[0].args[1]).toBe('/etc/oooi-dhcp/config.json');
    expect(standby.containers[0].args[1]).toBe('/etc/oooi-dhcp/config-standby.json');
    for (const p of [primary, standby]) {
      expect(p.containers[0].ports).toContainEqual({ name: 'ha', containerPort: 647, protocol: 'TCP' });
      expect(p.containers[0].volumeMounts).toContainEqual({
        name: 'ha-secret',
        mountPath: '/etc/oooi-dhcp-ha',
        readOnly: true,
      });
      expect(p.volumes).toContainEqual({
        name: 'ha-secret',
        secret: { secretName: 'lab-dhcp-ha', defaultMode: 0o440 },
      });
    }
    expect(primary.affinity).toBeUndefined();
    expect(standby.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      {
        labelSelector: { matchLabels: r.names.instanceSelector },
        topologyKey: 'kubernetes.io/hostname',
      },
    ]);
    expect(pod(r.children.standbyDeployment).volumes[1]).toEqual({
      name: 'leases',
      persistentVolumeClaim: { claimName: 'lab-dhcp-1-leases' },
    });
  });

  test('the configs: each its own serverIP, the partner the other, each excludes the other', () => {
    const r = plan(pairDhcpServer());
    const primary = JSON.parse(r.files['config.json']!);
    const standby = JSON.parse(r.files['config-standby.json']!);
    expect(r.children.configMap.data).toEqual(r.files);
    expect([primary.network.serverIP, primary.ha.role, primary.ha.partner]).toEqual([
      '198.51.100.2',
      'primary',
      { address: STANDBY_IP, port: 647 },
    ]);
    expect([standby.network.serverIP, standby.ha.role, standby.ha.partner]).toEqual([
      STANDBY_IP,
      'standby',
      { address: '198.51.100.2', port: 647 },
    ]);
    expect(primary.excluded).toContain(STANDBY_IP);
    expect(standby.excluded).toContain('198.51.100.2');
    expect(primary.ha.secretFile).toBe('/etc/oooi-dhcp-ha/secret');
    expect(JSON.stringify(r.objects)).not.toMatch(/"kind":"Secret"/);
  });

  test('turning the pair on: the standby is created, the primary holds its template until the standby is available', () => {
    const single = plan(exampleDhcpServer());
    const running = { 'lab-dhcp': live(single.children.deployment) };
    const on = plan(pairDhcpServer(), running);
    expect(on.rollouts).toEqual(['hold', 'create']);
    expect(podTemplateHash(on.children.deployment)).toBe(podTemplateHash(single.children.deployment));
    const both = { ...running, 'lab-dhcp-1': live(on.children.standbyDeployment!) };
    expect(deploymentRolledOut(both['lab-dhcp-1'])).toBe(true);
    const next = plan(pairDhcpServer(), both);
    expect(next.rollouts).toEqual(['roll', 'current']);
    expect(pod(next.children.deployment).volumes).toContainEqual(
      expect.objectContaining({ name: 'ha-secret' }),
    );
  });

  test('turning the pair off: one Deployment, one config, the pod without the Secret or the port', () => {
    const r = plan(exampleDhcpServer());
    expect(r.children.standbyDeployment).toBeUndefined();
    expect(Object.keys(r.files)).toEqual(['config.json']);
    expect(JSON.parse(r.files['config.json']!).ha).toBeUndefined();
    expect(JSON.stringify(pod(r.children.deployment))).not.toMatch(/ha-secret|647/);
  });
});
