// The attachments' external Services in `oooi render`: GIVEN the input objects, WHEN rendered, THEN the
// `<attachment>-proxy-external` Services written and the `externalServiceStatus` blocks are the ones the attachment
// reconciler's desiredExternalService decides (a Service given in the input is the live one; the ProxyServer
// render would serve gives the target port).
import type { InfraClusterAttachment } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { builtinImages } from '../../workload/images';
import { attachment, infra, loadYaml, service } from '../../testing/fixtures';
import { readRenderInput } from './input';
import { renderFiles, renderInfras } from './render-infras';

const now = Date.parse('2030-01-02T03:04:05Z');
const proxySvc = service('vlan100-proxy', 'clusters', '172.30.0.10');

function withExternal(a: InfraClusterAttachment, enabled = true): InfraClusterAttachment {
  return { ...a, spec: { ...a.spec, externalService: { enabled, addressPoolName: 'edge' } } };
}

function render(objects: readonly unknown[]) {
  const read = readRenderInput(objects.map((value, i) => ({ file: 'input.yaml', index: i + 1, value })));
  if (!read.ok) throw new Error(read.errors.join('\n'));
  const result = renderInfras(read.input, { now, images: builtinImages });
  const externals = result.externalServices as (KubeObject & {
    spec: { ports: { targetPort: number }[]; selector: Record<string, string> };
  })[];
  const status = (name: string) =>
    (
      result.statuses.find((s) => s.kind === 'InfraClusterAttachment' && s.metadata.name === name)?.status as
        { externalServiceStatus?: unknown } | undefined
    )?.externalServiceStatus;
  return { result, externals, status };
}

const ownedBy = (name: string, lb?: { ip: string }) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: `${name}-proxy-external`,
    namespace: 'clusters',
    ownerReferences: [
      {
        apiVersion: 'hostedcluster.densityops.com/v1alpha1',
        kind: 'InfraClusterAttachment',
        name,
        uid: `uid-${name}`,
        controller: true,
      },
    ],
  },
  spec: { type: 'LoadBalancer' },
  ...(lb ? { status: { loadBalancer: { ingress: [lb] } } } : {}),
});

describe('oooi render: the external Services', () => {
  test('the examples: bravo (externalService enabled) gets one on port 443 to the Envoy pods, alpha none', () => {
    const r = render([
      ...loadYaml('examples/infra.yaml'),
      ...loadYaml('examples/attachments.yaml'),
      proxySvc,
    ]);
    expect(r.externals.map((s) => s.metadata?.name)).toEqual(['bravo-proxy-external']);
    expect(r.externals[0]!.spec.ports).toEqual([
      { name: 'https', port: 443, targetPort: 443, protocol: 'TCP' },
    ]);
    expect(r.externals[0]!.spec.selector).toMatchObject({
      'hostedcluster.densityops.com/proxyserver': 'vlan100-proxy',
    });
    expect(r.status('bravo')).toEqual({ serviceName: 'bravo-proxy-external' });
    expect(r.status('alpha')).toBeUndefined();
    expect(renderFiles(r.result).files.map((f) => f.name)).toContain(
      'service-clusters-bravo-proxy-external.yaml',
    );
  });

  test.each([
    { name: 'disabled', objects: [infra(), withExternal(attachment('alpha'), false), proxySvc] },
    {
      name: 'terminating',
      objects: [infra(), withExternal(attachment('alpha', { terminating: true })), proxySvc],
    },
    {
      name: 'a Service of that name the attachment does not control',
      objects: [
        infra(),
        withExternal(attachment('alpha')),
        proxySvc,
        { ...ownedBy('alpha'), metadata: { name: 'alpha-proxy-external', namespace: 'clusters' } },
      ],
    },
  ])('none is written: $name', ({ objects }) => {
    const r = render(objects);
    expect(r.externals).toEqual([]);
    expect(r.status('alpha')).toBeUndefined();
  });

  test('a given Service of that name it does not control: Ready False ChildNotControlled naming it, Aggregated kept', () => {
    const foreign = {
      ...ownedBy('alpha'),
      metadata: { name: 'alpha-proxy-external', namespace: 'clusters' },
    };
    const r = render([infra(), withExternal(attachment('alpha')), proxySvc, foreign]);
    const conditions = (
      r.result.statuses.find((s) => s.kind === 'InfraClusterAttachment' && s.metadata.name === 'alpha')
        ?.status as { conditions: { type: string; status: string; reason: string; message: string }[] }
    ).conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
    expect(conditions).toEqual([
      expect.objectContaining({ type: 'Aggregated', status: 'True', reason: 'Aggregated' }),
      {
        type: 'Ready',
        status: 'False',
        reason: 'ChildNotControlled',
        message:
          'Service clusters/alpha-proxy-external exists and is not controlled by attachment "alpha": delete or rename it',
      },
    ]);
  });

  test('one the attachment controls is the live one: applied, its load balancer address reported', () => {
    const r = render([
      infra(),
      withExternal(attachment('alpha')),
      proxySvc,
      ownedBy('alpha', { ip: '198.51.100.250' }),
    ]);
    expect(r.externals.map((s) => s.metadata?.name)).toEqual(['alpha-proxy-external']);
    expect(r.externals[0]!.metadata?.annotations).toEqual({ 'metallb.universe.tf/address-pool': 'edge' });
    expect(r.status('alpha')).toEqual({ serviceName: 'alpha-proxy-external', externalIP: '198.51.100.250' });
  });

  test("the target port is the served ProxyServer's spec.port (a given one while the Infra's proxy is disabled)", () => {
    const proxy = {
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'ProxyServer',
      metadata: { name: 'vlan100-proxy', namespace: 'clusters' },
      spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.4' }, port: 8443 },
    };
    const r = render([
      infra({ infraComponents: { proxy: { enabled: false } } }),
      withExternal(attachment('alpha')),
      proxy,
    ]);
    expect(r.externals[0]!.spec.ports[0]!.targetPort).toBe(8443);
  });

  test('an attachment without its Infra still gets it, as its reconciler applies it', () => {
    const r = render([withExternal(attachment('alpha', { infra: 'missing' }))]);
    expect(r.externals.map((s) => s.metadata?.name)).toEqual(['alpha-proxy-external']);
    expect(r.externals[0]!.spec.selector).toMatchObject({
      'hostedcluster.densityops.com/proxyserver': 'missing-proxy',
    });
    expect(r.externals[0]!.spec.ports[0]!.targetPort).toBe(443);
  });
});
