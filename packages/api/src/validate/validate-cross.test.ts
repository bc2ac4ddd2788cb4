import type { OooiObject } from '../types';
import { alpha, bravo, infra, set } from '../testing/fixtures';
import { validateObject } from './validate-object';
import { validateCross } from './validate-cross';

const typed = (...objs: Record<string, unknown>[]): OooiObject[] =>
  objs.map((o) => {
    const r = validateObject(o);
    if (!r.ok) throw new Error(`fixture invalid: ${JSON.stringify(r.errors)}`);
    return r.value;
  });
const problems = (...objs: Record<string, unknown>[]) =>
  validateCross(typed(...objs)).map((p) => `${p.reason}: ${p.message}`);
const range = 'spec.appsIngress.metallb.ipAddressPoolRange';
const tenantInfra = set(infra, 'metadata.namespace', 'tenant');
const tenant = set(
  set(set(alpha, 'metadata.namespace', 'tenant'), 'metadata.name', 'intruder'),
  'spec.appsIngress',
  undefined,
);
const grant = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'HostedClusterGrant',
  metadata: { name: 'tenant', namespace: 'clusters' },
  spec: { from: [{ namespace: 'tenant' }], to: [{ name: 'alpha' }] },
};
const charlie = set(set(bravo, 'metadata.name', 'charlie'), 'spec.appsIngress.enabled', false);

describe('validateCross', () => {
  test.each<{ name: string; input: Record<string, unknown>[]; want: string[] }>([
    { name: 'the examples are consistent', input: [infra, alpha, bravo], want: [] },
    {
      name: 'apps disabled: its range is not checked',
      input: [
        infra,
        alpha,
        set(
          set(bravo, 'spec.appsIngress.enabled', false),
          `spec.appsIngress.metallb.ipAddressPoolRange`,
          '198.51.100.100-198.51.100.120',
        ),
      ],
      want: [],
    },
    {
      name: 'another Infra in the namespace is not compared',
      input: [
        infra,
        set(infra, 'metadata.name', 'vlan200'),
        alpha,
        set(set(bravo, 'spec.infraRef.name', 'vlan200'), 'spec.dns.clusterName', 'alpha'),
      ],
      want: [],
    },
    {
      name: 'a terminating duplicate is ignored',
      input: [
        infra,
        alpha,
        set(
          set(bravo, 'spec.dns.clusterName', 'alpha'),
          'metadata.deletionTimestamp',
          '2026-11-30T00:00:00Z',
        ),
      ],
      want: [],
    },
    {
      name: 'two attachments of one HostedCluster',
      input: [
        infra,
        alpha,
        set(set(bravo, 'spec.hostedClusterRef.name', 'alpha'), 'spec.hostedClusterRef.namespace', 'clusters'),
      ],
      want: [
        'DuplicateHostedCluster: attachments "alpha" and "bravo" reference HostedCluster clusters/alpha',
      ],
    },
    {
      name: 'two attachments of one domain',
      input: [infra, alpha, set(bravo, 'spec.dns.clusterName', 'alpha')],
      want: ['DuplicateHostname: attachments "alpha" and "bravo" declare domain "alpha.example.com"'],
    },
    {
      name: 'a third claimant is reported against the first owner',
      input: [
        infra,
        alpha,
        set(bravo, 'spec.dns.clusterName', 'alpha'),
        set(set(charlie, 'spec.dns.clusterName', 'alpha'), 'spec.appsIngress.enabled', false),
      ],
      want: [
        'DuplicateHostname: attachments "alpha" and "bravo" declare domain "alpha.example.com"',
        'DuplicateHostname: attachments "alpha" and "charlie" declare domain "alpha.example.com"',
      ],
    },
    {
      name: "a domain inside another attachment's *.apps wildcard",
      input: [
        infra,
        alpha,
        set(set(bravo, 'spec.dns.clusterName', 'x'), 'spec.dns.baseDomain', 'apps.alpha.example.com'),
      ],
      want: [
        'DuplicateHostname: domain "x.apps.alpha.example.com" of attachment "bravo" lies inside domain "alpha.example.com" of attachment "alpha" (its names and *.apps wildcard)',
      ],
    },
    {
      name: "a domain containing another attachment's domain",
      input: [
        infra,
        set(set(alpha, 'spec.dns.clusterName', 'x'), 'spec.dns.baseDomain', 'bravo.example.com'),
        set(bravo, 'spec.dns.clusterName', 'bravo'),
      ],
      want: [
        'DuplicateHostname: domain "bravo.example.com" of attachment "bravo" contains domain "x.bravo.example.com" of attachment "alpha"',
      ],
    },
    {
      name: 'sibling domains under one base domain are fine',
      input: [infra, alpha, bravo],
      want: [],
    },
    {
      name: 'a MetalLB range outside the CIDR',
      input: [infra, set(alpha, range, '203.0.113.200-203.0.113.209')],
      want: [
        'MetalLBRangeOutsideCIDR: spec.appsIngress.metallb.ipAddressPoolRange 203.0.113.200-203.0.113.209 of attachment "alpha" is not inside spec.networkConfig.cidr 198.51.100.0/24 of Infra "vlan100"',
      ],
    },
    {
      name: 'a MetalLB range straddling the CIDR end',
      input: [infra, set(alpha, range, '198.51.100.250-198.51.101.5')],
      want: [
        'MetalLBRangeOutsideCIDR: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.250-198.51.101.5 of attachment "alpha" is not inside spec.networkConfig.cidr 198.51.100.0/24 of Infra "vlan100"',
      ],
    },
    {
      name: 'a MetalLB range overlapping the DHCP pool',
      input: [infra, set(alpha, range, '198.51.100.195-198.51.100.205')],
      want: [
        'MetalLBRangeOverlapsPool: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.195-198.51.100.205 of attachment "alpha" overlaps the DHCP pool 198.51.100.100-198.51.100.199 of Infra "vlan100"',
      ],
    },
    {
      name: 'a MetalLB CIDR holding the gateway and every server',
      input: [infra, set(alpha, range, '198.51.100.0/29')],
      want: [
        'MetalLBRangeContainsStaticAddress: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.0/29 of attachment "alpha" contains spec.networkConfig.gateway 198.51.100.1 of Infra "vlan100"',
        'MetalLBRangeContainsStaticAddress: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.0/29 of attachment "alpha" contains spec.infraComponents.dhcp.serverIP 198.51.100.2 of Infra "vlan100"',
        'MetalLBRangeContainsStaticAddress: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.0/29 of attachment "alpha" contains spec.infraComponents.dns.serverIP 198.51.100.3 of Infra "vlan100"',
        'MetalLBRangeContainsStaticAddress: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.0/29 of attachment "alpha" contains spec.infraComponents.proxy.serverIP 198.51.100.4 of Infra "vlan100"',
      ],
    },
    {
      name: "two attachments' ranges overlapping",
      input: [infra, alpha, set(bravo, range, '198.51.100.205-198.51.100.214')],
      want: [
        'MetalLBRangeOverlap: spec.appsIngress.metallb.ipAddressPoolRange of attachments "alpha" (198.51.100.200-198.51.100.209) and "bravo" (198.51.100.205-198.51.100.214) overlap',
      ],
    },
    {
      name: 'one HostedCluster attached to two Infras',
      input: [
        infra,
        set(infra, 'metadata.name', 'vlan200'),
        alpha,
        set(
          set(set(bravo, 'spec.infraRef.name', 'vlan200'), 'spec.hostedClusterRef.name', 'alpha'),
          'spec.appsIngress.enabled',
          false,
        ),
      ],
      want: [
        'DuplicateHostedCluster: attachments "clusters/alpha" (Infra "vlan100") and "clusters/bravo" (Infra "vlan200") reference HostedCluster clusters/alpha',
      ],
    },
    {
      name: 'an ungranted attachment in another namespace takes part in no conflict',
      input: [infra, alpha, tenantInfra, tenant],
      want: [
        'ReferenceNotPermitted: attachment "tenant/intruder" names HostedCluster clusters/alpha of another namespace, and no HostedClusterGrant in namespace "clusters" lets attachments of namespace "tenant" name it: the attachment is left out of routing, DNS, conflicts and apps ingress',
      ],
    },
    {
      name: 'a granted one does (one HostedCluster, two Infras)',
      input: [infra, alpha, tenantInfra, tenant, grant],
      want: [
        'DuplicateHostedCluster: attachments "clusters/alpha" (Infra "vlan100") and "tenant/intruder" (Infra "vlan100") reference HostedCluster clusters/alpha',
      ],
    },
    {
      name: "a control-plane namespace that is not the HostedCluster's",
      input: [infra, alpha, set(bravo, 'spec.controlPlaneNamespace', 'clusters-alpha')],
      want: [
        'ControlPlaneNamespaceMismatch: spec.controlPlaneNamespace "clusters-alpha" of attachment "clusters/bravo" is not the control-plane namespace of HostedCluster clusters/bravo, which HyperShift runs in "clusters-bravo": the attachment is left out of routing, DNS, conflicts and apps ingress',
      ],
    },
    {
      name: 'an attachment whose Infra does not exist',
      input: [infra, set(alpha, 'spec.infraRef.name', 'vlan300')],
      want: [
        'InfraNotFound: spec.infraRef.name of attachment "alpha": Infra "vlan300" not found in namespace "clusters"',
      ],
    },
  ])('$name', ({ input, want }) => expect(problems(...input)).toEqual(want));

  test('each problem names both objects and their fields', () => {
    const [p] = validateCross(typed(infra, alpha, set(bravo, range, '198.51.100.205-198.51.100.214')));
    expect(p?.objects).toEqual([
      { kind: 'InfraClusterAttachment', namespace: 'clusters', name: 'alpha', field: range },
      { kind: 'InfraClusterAttachment', namespace: 'clusters', name: 'bravo', field: range },
    ]);
  });

  test('the result does not depend on input order', () => {
    const objs = typed(
      infra,
      alpha,
      set(bravo, 'spec.dns.clusterName', 'alpha'),
      set(charlie, 'spec.hostedClusterRef.name', 'alpha'),
    );
    expect(validateCross([...objs].reverse())).toEqual(validateCross(objs));
  });
});
