import { stringify } from 'yaml';
import { expectGolden } from '@oooi/api/testing';
import type { KubeObject } from '@oooi/kube';
import { infraChildProxyServer } from '../testing/fixtures';
import { holderLast, planProxyServer, type ProxyServerPlan } from './plan-proxy-server';
import { proxyPodSelector } from '../../workload/proxy-pods';
import { desiredProxyStatus } from './proxy-status';

const ha = { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 };
const haProxy = (over: Record<string, unknown> = {}) => {
  const p = infraChildProxyServer();
  return infraChildProxyServer({ networkConfig: { ...p.spec.networkConfig, highAvailability: ha, ...over } });
};

function rendered(input = haProxy()): ProxyServerPlan {
  const r = planProxyServer(input, { keepalivedImage: 'registry.local/oooi-keepalived:1' });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}

type Spec = Record<string, unknown>;
const dspec = (d: KubeObject | undefined) => d!.spec as Spec;
const pod = (d: KubeObject | undefined) => (dspec(d).template as Spec).spec as Spec;
const tmeta = (d: KubeObject | undefined) =>
  (dspec(d).template as Spec).metadata as {
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
const container = (d: KubeObject | undefined, name: string) =>
  (pod(d).containers as Spec[]).find((c) => c.name === name)!;
const networks = (d: KubeObject | undefined) => tmeta(d).annotations['k8s.v1.cni.cncf.io/networks'];
const deployments = (r: ProxyServerPlan) => r.objects.filter((o) => o.kind === 'Deployment');

describe('planProxyServer in HA mode', () => {
  test('golden: every child of the Infra child with highAvailability', () =>
    expectGolden(
      __dirname,
      'infra-child-ha.yaml',
      rendered()
        .objects.map((o) => stringify(o))
        .join('---\n'),
    ));

  test('two Deployments: replica 0 keeps the single-pod name, replica 1 is <w>-1; both last in apply order', () => {
    const r = rendered();
    expect(r.objects.slice(-2).map((o) => `${String(o.kind)} ${o.metadata?.name}`)).toEqual([
      'Deployment vlan100-proxy',
      'Deployment vlan100-proxy-1',
    ]);
    for (const d of deployments(r))
      expect([dspec(d).replicas, dspec(d).strategy]).toEqual([1, { type: 'Recreate' }]);
  });

  test('each replica on its own Multus address; serverIP is on no pod (keepalived adds it)', () => {
    const ips = deployments(rendered()).map(
      (d) => JSON.parse(tmeta(d).annotations['k8s.v1.cni.cncf.io/networks']!) as { ips: string[] }[],
    );
    expect(ips.map((n) => n[0]!.ips)).toEqual([['198.51.100.5/24'], ['198.51.100.6/24']]);
  });

  test('selectors: replica 0 keeps the pod selector (immutable), replica 1 adds its replica label; the Service selects both', () => {
    const r = rendered();
    const [d0, d1] = deployments(r);
    const sel = proxyPodSelector('vlan100-proxy');
    expect((dspec(d0).selector as Spec).matchLabels).toEqual(sel);
    expect((dspec(d1).selector as Spec).matchLabels).toEqual({
      ...sel,
      'hostedcluster.densityops.com/replica': '1',
    });
    expect((r.children.service.spec as Spec).selector).toEqual(sel);
    for (const d of [d0, d1]) expect(tmeta(d).labels).toMatchObject(sel);
    expect([
      tmeta(d0).labels['hostedcluster.densityops.com/replica'],
      tmeta(d1).labels['hostedcluster.densityops.com/replica'],
    ]).toEqual(['0', '1']);
  });

  test('the two replicas never share a node (replica 1: required anti-affinity on the hostname, enforced both ways)', () => {
    const [d0, d1] = deployments(rendered());
    expect(pod(d0).affinity).toBeUndefined();
    expect((pod(d1).affinity as Spec).podAntiAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchLabels: proxyPodSelector('vlan100-proxy') },
          topologyKey: 'kubernetes.io/hostname',
        },
      ],
    });
  });

  test('keepalived: root with NET_ADMIN and NET_RAW only; Envoy and oooi-xds unchanged in privilege', () => {
    const [d0] = deployments(rendered());
    expect(container(d0, 'keepalived').securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'NET_RAW'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      runAsGroup: 0,
    });
    expect((container(d0, 'envoy').securityContext as Spec).capabilities).toEqual({
      drop: ['ALL'],
      add: ['NET_BIND_SERVICE'],
    });
    expect((container(d0, 'oooi-xds').securityContext as Spec).capabilities).toEqual({ drop: ['ALL'] });
  });

  test('termination order: keepalived and oooi-xds stop at once, Envoy drains first (preStop sleep) within the grace period', () => {
    const [d0] = deployments(rendered());
    expect(container(d0, 'keepalived').lifecycle).toBeUndefined();
    expect(container(d0, 'oooi-xds').lifecycle).toBeUndefined();
    const sleep = ((container(d0, 'envoy').lifecycle as Spec).preStop as { sleep: { seconds: number } })
      .sleep;
    expect(sleep.seconds).toBeGreaterThan(0);
    expect(pod(d0).terminationGracePeriodSeconds).toBeGreaterThan(sleep.seconds);
  });

  test("oooi-xds keeps the track file in the shared directory keepalived's config reads", () => {
    const r = rendered();
    const [d0, d1] = deployments(r);
    expect(container(d0, 'oooi-xds').args).toEqual(
      expect.arrayContaining(['--track-file', '/run/oooi/envoy-serving']),
    );
    expect(r.files['keepalived-0.conf']).toContain('file "/run/oooi/envoy-serving"');
    const items = (d: KubeObject | undefined) =>
      (pod(d).volumes as { name: string; configMap?: { items?: unknown } }[]).find(
        (v) => v.name === 'keepalived',
      )!.configMap!.items;
    expect([items(d0), items(d1)]).toEqual([
      [{ key: 'keepalived-0.conf', path: 'keepalived.conf' }],
      [{ key: 'keepalived-1.conf', path: 'keepalived.conf' }],
    ]);
    expect(r.children.configMap.data).toEqual(r.files);
  });

  test('a changed VRRP router ID rolls both pods (the keepalived.conf hash is on the template)', () => {
    const before = deployments(rendered()).map((d) => dspec(d).template);
    const after = deployments(rendered(haProxy({ highAvailability: { ...ha, virtualRouterID: 52 } }))).map(
      (d) => dspec(d).template,
    );
    expect(after[0]).not.toEqual(before[0]);
    expect(after[1]).not.toEqual(before[1]);
  });

  test('HA without a VLAN is refused, naming the field', () => {
    const p = haProxy({ networkAttachmentName: undefined });
    const r = planProxyServer(p);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['spec.networkConfig.highAvailability']);
  });

  /** The Deployment as the cache would hold it: the body, rolled out and available. */
  const live = (d: KubeObject): KubeObject => ({
    ...d,
    metadata: { ...d.metadata, generation: 1 },
    status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
  });
  const envoyImage = (d: KubeObject | undefined) => container(d, 'envoy').image;
  /** Both replicas' Envoy images after an image change, with HOLDER in status.serverIPHolder (or none). */
  const afterImageChange = (holder?: string) => {
    const before = deployments(rendered()).map(live);
    const changed = infraChildProxyServer({
      proxyImage: 'docker.io/envoyproxy/envoy:v1.37.0',
      networkConfig: { ...haProxy().spec.networkConfig },
    });
    const input =
      holder === undefined ? changed : { ...changed, status: { serverIPHolder: { replicaIP: holder } } };
    const newer = planProxyServer(input, {}, (name) => before.find((d) => d.metadata?.name === name));
    if (!newer.ok) throw new Error('not rendered');
    const { deployment, replica1Deployment } = newer.value.children;
    return { images: [envoyImage(deployment), envoyImage(replica1Deployment)], old: envoyImage(before[1]) };
  };

  test('an image change reaches replica 0 first; replica 1 keeps its template until 0 is rolled out again', () => {
    const { images, old } = afterImageChange();
    expect(images).toEqual(['docker.io/envoyproxy/envoy:v1.37.0', old]);
    // replica 1 holding serverIP: the same order
    expect(afterImageChange(ha.replicaIPs[1]).images).toEqual(images);
  });

  test('the replica holding serverIP rolls last, so a rollout moves the address once', () => {
    const { images, old } = afterImageChange(ha.replicaIPs[0]);
    expect(images).toEqual([old, 'docker.io/envoyproxy/envoy:v1.37.0']);
    expect(holderLast(ha.replicaIPs[0], ha.replicaIPs)).toEqual([1, 0]);
    expect(holderLast(ha.replicaIPs[1], ha.replicaIPs)).toEqual([0, 1]);
    expect(holderLast(undefined, ha.replicaIPs)).toEqual([0, 1]);
    expect(holderLast('198.51.100.99', ha.replicaIPs)).toEqual([0, 1]);
  });

  test('Available: both replicas, or ReplicasDegraded naming the other while one serves, NoReplicaAvailable', () => {
    const proxy = haProxy();
    const dep = (ok: boolean): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x', generation: 1 },
      status: {
        observedGeneration: 1,
        availableReplicas: ok ? 1 : 0,
        conditions: [
          { type: 'Available', status: ok ? 'True' : 'False', message: ok ? 'up' : 'pod Pending' },
        ],
      },
    });
    const available = (a: boolean, b: boolean) =>
      desiredProxyStatus({
        proxy,
        rendered: planProxyServer(proxy),
        conflicts: [],
        deployment: dep(a),
        replica1: dep(b),
        now: 0,
      }).conditions!.find((c) => c.type === 'Available')!;
    expect(available(true, true)).toMatchObject({ status: 'True', reason: 'ReplicasAvailable' });
    expect(available(true, false)).toMatchObject({
      status: 'False',
      reason: 'ReplicasDegraded',
      message:
        '1/2 replicas available; not available: 198.51.100.6 (Deployment vlan100-proxy-1: DeploymentUnavailable: 0/1 replicas available)',
    });
    expect(available(false, false)).toMatchObject({ status: 'False', reason: 'NoReplicaAvailable' });
  });

  test('turning HA mode on: replica 1 waits until replica 0 has left serverIP', () => {
    const single = planProxyServer(infraChildProxyServer());
    if (!single.ok) throw new Error('not rendered');
    const onServerIP = single.value.children.deployment;
    const first = planProxyServer(haProxy(), {}, (name) =>
      name === 'vlan100-proxy' ? onServerIP : undefined,
    );
    if (!first.ok) throw new Error('not rendered');
    expect(first.value.children.replica1Deployment).toBeUndefined();
    expect(first.value.objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata?.name)).toEqual([
      'vlan100-proxy',
    ]);
    const moved = first.value.children.deployment;
    expect(networks(moved)).toContain('198.51.100.5/24');
    const next = planProxyServer(haProxy(), {}, (name) => (name === 'vlan100-proxy' ? moved : undefined));
    if (!next.ok) throw new Error('not rendered');
    expect(next.value.children.replica1Deployment?.metadata?.name).toBe('vlan100-proxy-1');
  });
});
