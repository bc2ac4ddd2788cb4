// HA mode (spec.networkConfig.additionalServerIPs): one single-replica Deployment per address, the rollout gate
// between them, and the shared children selecting every replica.
import { stringify } from 'yaml';
import type { DNSServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { expectGolden } from '../testing/golden';
import { exampleDnsServer } from '../testing/fixtures';
import { POD_TEMPLATE_HASH_ANNOTATION } from '../../workload/rollout-gate';
import { planDnsServer, type DnsServerPlan, type PlanDnsServerOptions } from './plan-dns-server';

type Spec = Record<string, unknown>;
const net = { cidr: '198.51.100.0/24', serverIP: '198.51.100.3', networkAttachmentName: 'vlan100' };

function ha(extra: string[], spec: Partial<DNSServer['spec']> = {}): DNSServer {
  return exampleDnsServer({ spec: { networkConfig: { ...net, additionalServerIPs: extra }, ...spec } });
}

function plan(dns: DNSServer, options: PlanDnsServerOptions = {}): DnsServerPlan {
  const r = planDnsServer(dns, options);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}

const template = (d: KubeObject): Spec => (d.spec as Spec).template as Spec;
const podSpec = (d: KubeObject): Spec => template(d).spec as Spec;
const podLabels = (d: KubeObject): Record<string, string> =>
  (template(d).metadata as { labels: Record<string, string> }).labels;
const networks = (d: KubeObject): unknown =>
  JSON.parse(
    (template(d).metadata as { annotations: Record<string, string> }).annotations[
      'k8s.v1.cni.cncf.io/networks'
    ]!,
  );
const image = (d: KubeObject): string => (podSpec(d).containers as { image: string }[])[0]!.image;
const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** D as the cache holds it once rolled out and available. */
function available(d: KubeObject): KubeObject {
  return {
    ...d,
    metadata: { ...d.metadata, generation: 2 },
    status: { observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
  };
}

describe('planDnsServer in HA mode', () => {
  test('golden: one Deployment per address, the others after replica 0', () => {
    const r = plan(ha(['198.51.100.5', '198.51.100.6']));
    expectGolden(
      __dirname,
      'ha-deployments.yaml',
      r.children.deployments.map((d) => stringify(d)).join('---\n'),
    );
  });

  test('turning HA on rewrites nothing of the existing Deployment', () => {
    const before = plan(exampleDnsServer({ spec: { networkConfig: net } }));
    const after = plan(ha(['198.51.100.5']));
    expect(after.children.deployments[0]).toEqual(before.children.deployment);
    expect(after.children.deployment).toEqual(before.children.deployment);
  });

  test('each replica holds its own Multus static address; replicas 1.. keep off the others’ nodes', () => {
    const r = plan(ha(['198.51.100.5', '198.51.100.6']));
    const ds = r.children.deployments;
    expect(ds.map((d) => d.metadata?.name)).toEqual(['vlan100-dns', 'vlan100-dns-1', 'vlan100-dns-2']);
    expect(ds.map((d) => (networks(d) as { ips: string[] }[])[0]!.ips)).toEqual([
      ['198.51.100.3/24'],
      ['198.51.100.5/24'],
      ['198.51.100.6/24'],
    ]);
    expect(ds.map((d) => (d.spec as Spec).strategy)).toEqual(ds.map(() => ({ type: 'Recreate' })));
    expect(podSpec(ds[0]!).affinity).toBeUndefined();
    for (const d of ds.slice(1)) {
      expect(podSpec(d).affinity).toEqual({
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            {
              labelSelector: { matchLabels: r.names.instanceSelector },
              topologyKey: 'kubernetes.io/hostname',
            },
          ],
        },
      });
    }
    expect(r.replicas.map((x) => x.address)).toEqual(['198.51.100.3', '198.51.100.5', '198.51.100.6']);
  });

  test('one ConfigMap, ServiceAccount, Role and NetworkPolicy for all; the Service and the policy select every replica, each Deployment only its own', () => {
    const r = plan(ha(['198.51.100.5', '198.51.100.6']));
    const kinds = r.objects.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'ConfigMap')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'Deployment')).toHaveLength(3);
    const serviceSelector = (r.children.service.spec as { selector: Record<string, string> }).selector;
    const policySelector = (
      r.children.networkPolicy!.spec as { podSelector: { matchLabels: Record<string, string> } }
    ).podSelector.matchLabels;
    const ds = r.children.deployments;
    for (const [i, d] of ds.entries()) {
      expect(matches(serviceSelector, podLabels(d))).toBe(true);
      expect(matches(policySelector, podLabels(d))).toBe(true);
      expect(podSpec(d).serviceAccountName).toBe(r.names.workload);
      for (const [j, other] of ds.entries()) {
        const sel = (other.spec as { selector: { matchLabels: Record<string, string> } }).selector
          .matchLabels;
        expect(matches(sel, podLabels(d))).toBe(i === j);
      }
    }
  });

  test('an image change reaches replica 0 first, replica 1 only once 0 is rolled out and available again', () => {
    const old = plan(ha(['198.51.100.5'])).children.deployments.map(available);
    const byName = (ds: readonly KubeObject[]): Record<string, KubeObject> =>
      Object.fromEntries(ds.map((d): [string, KubeObject] => [String(d.metadata?.name), d]));
    const next = ha(['198.51.100.5'], { image: 'mirror.example.com/coredns:1.14.8' });

    const first = plan(next, { observedDeployments: byName(old) });
    expect(first.rollouts).toEqual(['roll', 'hold']);
    expect(first.children.deployments.map(image)).toEqual([
      'mirror.example.com/coredns:1.14.8',
      'docker.io/coredns/coredns:1.14.7',
    ]);

    // replica 0 written, its controller has not rolled it out yet: replica 1 still holds
    const rolling = {
      ...first.children.deployments[0]!,
      metadata: { ...first.children.deployments[0]!.metadata, generation: 3 },
      status: { observedGeneration: 2 },
    };
    const second = plan(next, { observedDeployments: byName([rolling, old[1]!]) });
    expect(second.rollouts).toEqual(['current', 'hold']);

    const third = plan(next, {
      observedDeployments: byName([available(first.children.deployments[0]!), old[1]!]),
    });
    expect(third.rollouts).toEqual(['current', 'roll']);
    expect(third.children.deployments.map(image)).toEqual([
      'mirror.example.com/coredns:1.14.8',
      'mirror.example.com/coredns:1.14.8',
    ]);
    expect(third.children.deployments[1]!.metadata?.annotations?.[POD_TEMPLATE_HASH_ANNOTATION]).not.toBe(
      old[1]!.metadata?.annotations?.[POD_TEMPLATE_HASH_ANNOTATION],
    );
  });

  test('a record change touches no Deployment (the ConfigMap only): nothing is gated', () => {
    const old = plan(ha(['198.51.100.5'])).children.deployments.map(available);
    const observedDeployments = Object.fromEntries(old.map((d) => [d.metadata!.name, d]));
    const r = plan(
      exampleDnsServer({
        clusters: ['alpha'],
        spec: { networkConfig: { ...net, additionalServerIPs: ['198.51.100.5'] } },
      }),
      {
        observedDeployments,
      },
    );
    expect(r.rollouts).toEqual(['current', 'current']);
  });
});
