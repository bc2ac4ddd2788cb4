import type { HostedClusterGrant, InfraClusterAttachment } from '../types';
import { formatFieldError } from './field-error';
import { validateObject } from './validate-object';
import { hyperShiftControlPlaneNamespace, referenceRefusal } from './references';

function attachment(
  namespace: string,
  hc: { namespace?: string; name: string },
  controlPlaneNamespace?: string,
): InfraClusterAttachment {
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'InfraClusterAttachment',
    metadata: { name: 'x', namespace },
    spec: {
      infraRef: { name: 'vlan' },
      hostedClusterRef: hc,
      dns: { clusterName: 'x', baseDomain: 'example.com' },
      ...(controlPlaneNamespace ? { controlPlaneNamespace } : {}),
    },
  };
}

function grant(
  namespace: string,
  from: string[],
  to?: string[],
  deletionTimestamp?: string,
): HostedClusterGrant {
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'HostedClusterGrant',
    metadata: { name: 'g', namespace, ...(deletionTimestamp ? { deletionTimestamp } : {}) },
    spec: {
      from: from.map((n) => ({ namespace: n })),
      ...(to ? { to: to.map((name) => ({ name })) } : {}),
    },
  };
}

describe('referenceRefusal', () => {
  const alpha = { namespace: 'clusters', name: 'alpha' };
  test.each<{ name: string; a: InfraClusterAttachment; grants: HostedClusterGrant[]; want?: string }>([
    { name: 'same namespace: no grant needed', a: attachment('clusters', alpha), grants: [] },
    {
      name: 'the default HostedCluster namespace is clusters',
      a: attachment('clusters', { name: 'alpha' }),
      grants: [],
    },
    {
      name: 'another namespace without a grant',
      a: attachment('tenant', alpha),
      grants: [],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'the defaulted namespace is another one too',
      a: attachment('tenant', { name: 'alpha' }),
      grants: [],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'a grant for every HostedCluster of the namespace',
      a: attachment('tenant', alpha),
      grants: [grant('clusters', ['tenant'])],
    },
    {
      name: 'a grant naming the HostedCluster',
      a: attachment('tenant', alpha),
      grants: [grant('clusters', ['other', 'tenant'], ['alpha'])],
    },
    {
      name: 'a grant naming another HostedCluster',
      a: attachment('tenant', alpha),
      grants: [grant('clusters', ['tenant'], ['bravo'])],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'a grant for another namespace',
      a: attachment('tenant', alpha),
      grants: [grant('clusters', ['other'])],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'a grant that lives in the wrong namespace (the attachment cannot grant itself)',
      a: attachment('tenant', alpha),
      grants: [grant('tenant', ['tenant'])],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'a terminating grant no longer grants',
      a: attachment('tenant', alpha),
      grants: [grant('clusters', ['tenant'], undefined, '2026-12-01T00:00:00Z')],
      want: 'ReferenceNotPermitted',
    },
    {
      name: 'the control-plane namespace HyperShift uses',
      a: attachment('clusters', alpha, 'clusters-alpha'),
      grants: [],
    },
    {
      name: 'another control-plane namespace',
      a: attachment('clusters', alpha, 'kube-system'),
      grants: [],
      want: 'ControlPlaneNamespaceMismatch',
    },
    {
      name: 'an ungranted reference is reported before the control-plane namespace',
      a: attachment('tenant', alpha, 'kube-system'),
      grants: [],
      want: 'ReferenceNotPermitted',
    },
  ])('$name', ({ a, grants, want }) => {
    expect(referenceRefusal(a, grants)?.reason).toBe(want);
  });

  test('the messages name the attachment, the HostedCluster and what is missing', () => {
    expect(referenceRefusal(attachment('tenant', alpha), [])?.message).toBe(
      'attachment "tenant/x" names HostedCluster clusters/alpha of another namespace, and no HostedClusterGrant in namespace "clusters" lets attachments of namespace "tenant" name it: the attachment is left out of routing, DNS, conflicts and apps ingress',
    );
    expect(referenceRefusal(attachment('clusters', alpha, 'kube-system'), [])).toEqual({
      reason: 'ControlPlaneNamespaceMismatch',
      field: 'spec.controlPlaneNamespace',
      message:
        'spec.controlPlaneNamespace "kube-system" of attachment "clusters/x" is not the control-plane namespace of HostedCluster clusters/alpha, which HyperShift runs in "clusters-alpha": the attachment is left out of routing, DNS, conflicts and apps ingress',
    });
  });

  test("HyperShift's control-plane namespace turns dots of the name into dashes", () => {
    expect(hyperShiftControlPlaneNamespace({ namespace: 'clusters', name: 'a.b' })).toBe('clusters-a-b');
  });
});

describe('HostedClusterGrant admission', () => {
  const base = {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'HostedClusterGrant',
    metadata: { name: 'tenant', namespace: 'clusters' },
  };
  test('a grant with and without names is admitted; a kind without status keeps none', () => {
    for (const spec of [
      { from: [{ namespace: 'tenant' }] },
      { from: [{ namespace: 'a' }], to: [{ name: 'alpha' }] },
    ]) {
      const r = validateObject({ ...base, spec, status: { anything: true } });
      expect(r.ok && r.value).toEqual({ ...base, spec });
    }
  });
  test.each([
    {
      spec: { from: [] },
      want: 'spec.from: Invalid value: 0: spec.from in body should have at least 1 items',
    },
    { spec: {}, want: 'spec.from: Required value' },
    {
      spec: { from: [{ namespace: 'Tenant' }] },
      want: "spec.from[0].namespace: spec.from[].namespace must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    },
  ])('refused: $want', ({ spec, want }) => {
    const r = validateObject({ ...base, spec });
    expect(r.ok ? [] : r.errors.map(formatFieldError)).toContain(want);
  });
});
