// Golden tests of what an attachment writes beyond its status: the external Service in the management cluster
// and the apps-ingress objects in the hosted cluster.
import type { InfraClusterAttachment } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { attachment } from '../../testing/fixtures';
import { expectGolden } from '@oooi/api/testing';
import { toYaml } from '../../offline/render/yaml-text';
import {
  appsIngressNames,
  cleanupObjects,
  desiredIngressService,
  desiredMetalLBObjects,
  desiredSubscription,
  staleObjects,
} from './apps-ingress-objects';
import { desiredExternalService, externalServiceName, externalServiceStatus } from './external-service';

function withExternal(a: InfraClusterAttachment, ext: object, uid = 'uid-1'): InfraClusterAttachment {
  return { ...a, metadata: { ...a.metadata, uid }, spec: { ...a.spec, externalService: ext } };
}

const full = withExternal(attachment('c1'), {
  enabled: true,
  addressPoolName: 'public',
  labels: { 'external-dns/publish': 'true', 'app.kubernetes.io/managed-by': 'someone-else' },
  annotations: {
    'external-dns.alpha.kubernetes.io/hostname': 'oauth.c1.example.com',
    'metallb.universe.tf/address-pool': 'user-tries-to-win',
  },
});

describe('desiredExternalService', () => {
  const ownedLive = (a: InfraClusterAttachment): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: externalServiceName(a),
      namespace: 'clusters',
      ownerReferences: [
        {
          apiVersion: 'hostedcluster.densityops.com/v1alpha1',
          kind: 'InfraClusterAttachment',
          name: a.metadata.name,
          uid: a.metadata.uid!,
          controller: true,
        },
      ],
    },
  });
  const foreign: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'c1-proxy-external' } };

  test('enabled: one port 443 to the listener, the Infra proxy selector, the pool annotation ours', () => {
    const plan = desiredExternalService({ attachment: full, live: undefined, targetPort: 443 });
    expect(plan.action).toBe('apply');
    expectGolden(__dirname, 'external-service.yaml', toYaml(plan.action === 'apply' ? plan.object : {}));
  });
  test.each([
    {
      name: 'disabled, ours exists: delete',
      a: withExternal(attachment('c1'), { enabled: false }),
      live: 'ours',
      want: 'delete',
    },
    { name: 'disabled, none: nothing', a: withExternal(attachment('c1'), {}), live: 'none', want: 'none' },
    {
      name: 'disabled, foreign: left alone',
      a: withExternal(attachment('c1'), {}),
      live: 'foreign',
      want: 'none',
    },
    { name: 'enabled, foreign: blocked', a: full, live: 'foreign', want: 'blocked' },
    { name: 'enabled, ours: apply', a: full, live: 'ours', want: 'apply' },
    {
      name: 'terminating, ours: delete',
      a: { ...full, metadata: { ...full.metadata, deletionTimestamp: '2030-01-01T00:00:00Z' } },
      live: 'ours',
      want: 'delete',
    },
  ])('$name', ({ a, live, want }) => {
    const l = live === 'ours' ? ownedLive(a) : live === 'foreign' ? foreign : undefined;
    const plan = desiredExternalService({ attachment: a, live: l, targetPort: 443 });
    expect(plan.action).toBe(want);
    if (plan.action === 'blocked') expect(plan.problem).toMatchObject({ reason: 'ChildNotControlled' });
  });
  test.each([
    {
      name: 'a long name is cut and hashed into a DNS-1035 label',
      n: 'x'.repeat(60),
      want: /^x{54}-[0-9a-f]{8}$/,
    },
    { name: 'a dotted name too', n: 'c1.prod', want: /^c1-prod-proxy-external-[0-9a-f]{8}$/ },
    { name: 'a plain name as the reference says', n: 'c1', want: /^c1-proxy-external$/ },
  ])('name: $name', ({ n, want }) => {
    expect(externalServiceName(attachment(n))).toMatch(want);
  });
  test.each([
    { name: 'no address yet', status: undefined, want: { serviceName: 's' } },
    {
      name: 'an IP',
      status: { loadBalancer: { ingress: [{ ip: '192.168.7.9' }] } },
      want: { serviceName: 's', externalIP: '192.168.7.9' },
    },
    {
      name: 'a hostname',
      status: { loadBalancer: { ingress: [{ hostname: 'lb.example.net' }] } },
      want: { serviceName: 's', externalHostname: 'lb.example.net' },
    },
    { name: 'junk', status: { loadBalancer: { ingress: 'x' } }, want: { serviceName: 's' } },
  ])('status: $name', ({ status, want }) => {
    expect(externalServiceStatus('s', { apiVersion: 'v1', kind: 'Service', metadata: {}, status })).toEqual(
      want,
    );
  });
});

describe('apps-ingress objects', () => {
  const a: InfraClusterAttachment = {
    ...attachment('c1', { apps: { http: 8080, https: 8443 } }),
    spec: {
      ...attachment('c1', { apps: { http: 8080, https: 8443 } }).spec,
    },
  };
  a.spec.appsIngress!.service = {
    labels: { team: 'a' },
    annotations: { note: 'x', 'metallb.universe.tf/address-pool': 'user-tries-to-win' },
  };
  const n = appsIngressNames(a)!;

  test('created by us (annotated) and applied onto an existing object (not annotated)', () => {
    const objects = [desiredSubscription(a), ...desiredMetalLBObjects(a, n), desiredIngressService(a, n)];
    const text = objects.map((o, i) => toYaml(o.body(i % 2 === 0))).join('---\n');
    expectGolden(__dirname, 'apps-ingress-objects.yaml', text);
  });
  test.each([
    { name: 'nothing recorded: nothing stale', prev: {}, want: [] },
    {
      name: 'pool renamed: the old L2Advertisement and pool',
      prev: {
        appliedAddressPoolName: 'old',
        appliedL2AdvertisementName: 'advertise-old',
        appliedServiceName: 'oooi-ingress',
        appliedServiceNamespace: 'openshift-ingress',
      },
      want: ['L2Advertisement openshift-operators/advertise-old', 'IPAddressPool openshift-operators/old'],
    },
    {
      name: 'service moved',
      prev: {
        appliedServiceName: 'other',
        appliedServiceNamespace: 'openshift-ingress',
        appliedAddressPoolName: 'c1-apps',
        appliedL2AdvertisementName: 'advertise-c1-apps',
      },
      want: ['Service openshift-ingress/other'],
    },
  ])('stale: $name', ({ prev, want }) => {
    expect(staleObjects(prev, n).map((r) => `${r.kind.kind} ${r.namespace}/${r.name}`)).toEqual(want);
  });
  test('cleanup: Service, L2Advertisement, pool, then MetalLB and the Subscription', () => {
    const refs = cleanupObjects({
      appliedAddressPoolName: 'p',
      appliedL2AdvertisementName: 'l',
      appliedServiceName: 's',
      appliedServiceNamespace: 'n',
    });
    expect(refs.map((r) => `${r.kind.kind} ${r.namespace}/${r.name}`)).toEqual([
      'Service n/s',
      'L2Advertisement openshift-operators/l',
      'IPAddressPool openshift-operators/p',
      'MetalLB openshift-operators/metallb',
      'Subscription openshift-operators/metallb-operator',
    ]);
  });
  test('names: the reference defaults', () => {
    const plain = attachment('c1', { apps: {} });
    plain.spec.appsIngress!.ports = undefined;
    expect(appsIngressNames(plain)).toEqual({
      pool: 'c1-apps',
      range: '198.51.100.200-198.51.100.209',
      l2Advertisement: 'advertise-c1-apps',
      serviceName: 'oooi-ingress',
      serviceNamespace: 'openshift-ingress',
      http: 80,
      https: 443,
    });
    plain.spec.appsIngress!.metallb = { addressPoolName: 'p' };
    expect(appsIngressNames(plain)).toBeUndefined();
  });
});
