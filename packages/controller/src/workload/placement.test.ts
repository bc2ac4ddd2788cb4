import { planDhcpServer } from '../dhcp';
import { planDnsServer } from '../dns';
import { planProxyServer } from '../proxy';
import type { DHCPServer, DNSServer, ProxyServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import {
  DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
  nodeLossTolerations,
  parseTolerationSeconds,
  replicaAntiAffinity,
  replicaPlacement,
} from './placement';
import { replicaNames, workloadNames } from './names';

const networkConfig = {
  cidr: '198.51.100.0/24',
  serverIP: '198.51.100.10',
  networkAttachmentName: 'vlan100',
  networkAttachmentNamespace: 'clusters',
};
const meta = { name: 'vlan100-x', namespace: 'clusters' };
const dns: DNSServer = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'DNSServer',
  metadata: meta,
  spec: { networkConfig, staticEntries: [] },
} as unknown as DNSServer;
const dhcp: DHCPServer = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'DHCPServer',
  metadata: meta,
  spec: {
    networkConfig: { ...networkConfig, gateway: '198.51.100.1', dnsServers: ['198.51.100.10'] },
    leaseConfig: { rangeStart: '198.51.100.100', rangeEnd: '198.51.100.200' },
  },
} as unknown as DHCPServer;
const proxy: ProxyServer = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'ProxyServer',
  metadata: meta,
  spec: { networkConfig },
} as unknown as ProxyServer;

function podTolerations(deployment: KubeObject): unknown {
  return (deployment.spec as { template: { spec: { tolerations?: unknown } } }).template.spec.tolerations;
}

/** Each component's Deployment rendered with the operator-wide option SECONDS (undefined: the default). */
function deployments(seconds?: number): Record<string, KubeObject> {
  const o = seconds === undefined ? {} : { nodeLossTolerationSeconds: seconds };
  const out: Record<string, KubeObject> = {};
  const d = planDnsServer(dns, o);
  const h = planDhcpServer(dhcp, o);
  const p = planProxyServer(proxy, o);
  if (!d.ok || !h.ok || !p.ok) throw new Error(JSON.stringify([d, h, p]));
  out.dns = d.value.children.deployment;
  out.dhcp = h.value.children.deployment;
  out.proxy = p.value.children.deployment;
  return out;
}

describe('node-loss tolerations of the data-plane pods', () => {
  test('both taints, NoExecute, for the given seconds', () => {
    expect(nodeLossTolerations(7)).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 7 },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 7,
      },
    ]);
  });

  test.each(['dns', 'dhcp', 'proxy'])('%s: the default, or the option, on the pod template', (c) => {
    expect(podTolerations(deployments()[c]!)).toEqual(
      nodeLossTolerations(DEFAULT_NODE_LOSS_TOLERATION_SECONDS),
    );
    expect(podTolerations(deployments(0)[c]!)).toEqual(nodeLossTolerations(0));
    expect(podTolerations(deployments(120)[c]!)).toEqual(nodeLossTolerations(120));
  });

  test.each([
    ['0', 0],
    ['15', 15],
    ['3600', 3600],
    ['3601', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    [' 5', undefined],
    ['', undefined],
  ])('parseTolerationSeconds(%j) = %j', (text, want) => {
    expect(parseTolerationSeconds(text)).toBe(want);
  });
});

describe('replica anti-affinity (HA mode)', () => {
  const instance = { 'app.kubernetes.io/name': 'coredns', 'app.kubernetes.io/instance': 'vlan100-x' };

  test('required, on the hostname, between the pods of one instance', () => {
    expect(replicaAntiAffinity(instance)).toEqual({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: instance }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    });
  });

  test.each([
    { name: 'replica 0 keeps its template (none)', index: 0, want: undefined },
    { name: 'replica 1 carries it', index: 1, want: replicaAntiAffinity(instance) },
    { name: 'replica 3 carries it', index: 3, want: replicaAntiAffinity(instance) },
  ])('$name', ({ index, want }) => {
    expect(replicaPlacement(index, instance)).toEqual(want);
  });

  test('every replica pod matches the instance selector, and only its own Deployment selects it', () => {
    const names = workloadNames('dns', 'vlan100-x');
    const replicas = [0, 1, 2].map((i) => replicaNames('dns', names, i));
    const matches = (sel: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>) =>
      Object.entries(sel).every(([k, v]) => labels[k] === v);
    for (const [i, r] of replicas.entries()) {
      expect(matches(names.instanceSelector, r.podLabels)).toBe(true);
      for (const [j, other] of replicas.entries()) expect(matches(other.selector, r.podLabels)).toBe(i === j);
    }
    expect(replicas.map((r) => r.workload)).toEqual(['vlan100-x', 'vlan100-x-1', 'vlan100-x-2']);
    expect(replicas[0]).toEqual({
      workload: names.workload,
      selector: names.selector,
      labels: names.labels,
      podLabels: names.labels,
    });
  });

  test('a long name: replica names stay DNS labels and distinct', () => {
    const names = workloadNames('dns', 'a'.repeat(63));
    const got = [1, 2, 3].map((i) => replicaNames('dns', names, i).workload);
    for (const n of got) expect(n).toMatch(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/);
    expect(new Set(got).size).toBe(3);
  });
});
