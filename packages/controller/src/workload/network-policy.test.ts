import {
  DEFAULT_NETWORK_POLICY,
  parseMetricsNamespaces,
  workloadNetworkPolicy,
  type WorkloadIngress,
} from './network-policy';

const meta = { name: 'w', namespace: 'ns', labels: { a: 'b' } };
const selector = { 'app.kubernetes.io/name': 'x', 'hostedcluster.densityops.com/x': 'w' };
const scrapers = (values: string[]) => ({
  from: [
    {
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values }],
      },
    },
  ],
});

describe('workloadNetworkPolicy', () => {
  test.each<{ name: string; ingress: WorkloadIngress; namespaces?: string[]; want: unknown }>([
    {
      name: 'open ports for anyone, metrics for the scrapers (ports de-duplicated, by port then protocol)',
      ingress: {
        open: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
          { protocol: 'UDP', port: 53 },
        ],
        metrics: [{ protocol: 'TCP', port: 9153 }],
      },
      want: [
        {
          ports: [
            { protocol: 'TCP', port: 53 },
            { protocol: 'UDP', port: 53 },
          ],
        },
        {
          ...scrapers(['openshift-monitoring', 'openshift-user-workload-monitoring']),
          ports: [{ protocol: 'TCP', port: 9153 }],
        },
      ],
    },
    {
      name: 'metrics only',
      ingress: { open: [], metrics: [{ protocol: 'TCP', port: 9167 }] },
      namespaces: ['monitoring', 'a-prom', 'monitoring'],
      want: [{ ...scrapers(['a-prom', 'monitoring']), ports: [{ protocol: 'TCP', port: 9167 }] }],
    },
    {
      name: 'no scrapers: the metrics port is closed as well',
      ingress: { open: [{ protocol: 'TCP', port: 443 }], metrics: [{ protocol: 'TCP', port: 18001 }] },
      namespaces: [],
      want: [{ ports: [{ protocol: 'TCP', port: 443 }] }],
    },
    {
      name: 'nothing admitted: no ingress rule at all (deny every ingress)',
      ingress: { open: [], metrics: [{ protocol: 'TCP', port: 9167 }] },
      namespaces: [],
      want: undefined,
    },
  ])('$name', ({ ingress, namespaces, want }) => {
    const options = namespaces ? { enabled: true, metricsNamespaces: namespaces } : DEFAULT_NETWORK_POLICY;
    const policy = workloadNetworkPolicy(meta, selector, ingress, options);
    expect(policy).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta,
      spec: { podSelector: { matchLabels: selector }, policyTypes: ['Ingress'] },
    });
    const spec = policy?.spec as { ingress?: unknown };
    expect(spec.ingress).toEqual(want);
    expect('ingress' in spec).toBe(want !== undefined);
  });

  test('off: no policy', () => {
    const ingress: WorkloadIngress = { open: [{ protocol: 'TCP', port: 443 }], metrics: [] };
    expect(
      workloadNetworkPolicy(meta, selector, ingress, { enabled: false, metricsNamespaces: [] }),
    ).toBeUndefined();
  });

  test('the policy never admits from an ipBlock or selects pods beyond the selector', () => {
    const ingress: WorkloadIngress = {
      open: [{ protocol: 'TCP', port: 443 }],
      metrics: [{ protocol: 'TCP', port: 1 }],
    };
    const text = JSON.stringify(workloadNetworkPolicy(meta, selector, ingress, DEFAULT_NETWORK_POLICY));
    expect(text).not.toMatch(/ipBlock|podSelector":\{\}|Egress/);
  });
});

describe('parseMetricsNamespaces', () => {
  test.each([
    { text: '', want: { ok: true, value: [] } },
    { text: ' b , a,,b ', want: { ok: true, value: ['a', 'b'] } },
    { text: 'openshift-monitoring', want: { ok: true, value: ['openshift-monitoring'] } },
    { text: 'ok,Not_OK,-x', want: { ok: false, invalid: ['-x', 'Not_OK'] } },
    { text: 'a'.repeat(64), want: { ok: false, invalid: ['a'.repeat(64)] } },
  ])('"$text"', ({ text, want }) => {
    expect(parseMetricsNamespaces(text)).toEqual(want);
  });
});
