// Cross-namespace references on the rig's real apiserver, with the controller watching every namespace: an
// attachment in another namespace naming a HostedCluster changes nothing for that cluster until the HostedCluster's
// namespace grants it (HostedClusterGrant); the grant appearing and going takes effect at once (watched, no
// resync). A control-plane namespace that is not the HostedCluster's is refused and nothing is written there.
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from './objects';
import {
  User,
  backendNames,
  conditionOf,
  conditionsOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const owner = 'ctl-e2e-grants-clusters';
const tenant = 'ctl-e2e-grants-tenant';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const alpha = () => user.get('InfraClusterAttachment', owner, 'alpha');
const intruder = () => user.get('InfraClusterAttachment', tenant, 'intruder');
const ownerProxy = () => user.get('ProxyServer', owner, 'vlan100-proxy');
const tenantProxy = () => user.get('ProxyServer', tenant, 'vlan100-proxy');
const routes = (p: KubeObject | undefined) => backendNames(p).length;

/** The tenant's attachment: its own domain, naming the owner's HostedCluster alpha. */
function intruderObject(): KubeObject {
  const a = attachment(tenant, 'intruder', { hc: 'alpha' });
  const spec = a.spec as { hostedClusterRef: { namespace: string } };
  return { ...a, spec: { ...spec, hostedClusterRef: { ...spec.hostedClusterRef, namespace: owner } } };
}

const grant: KubeObject = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'HostedClusterGrant',
  metadata: { name: 'tenant', namespace: owner },
  spec: { from: [{ namespace: tenant }], to: [{ name: 'alpha' }] },
};

/** Requests the controller sent that reach into the owner's namespace for a HostedCluster or a Secret. */
function hostedReads(): string[] {
  return ctl.rest.requests
    .map((r) => `${r.method} ${r.path}`)
    .filter((p) => p.includes(`/namespaces/${owner}/`) && /\/(hostedclusters|secrets)\//.test(p));
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, owner, tenant);
  ctl = await startController(undefined);
  await user.apply(
    'Infra',
    infra(owner, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  // The tenant's Infra on the same subnet (its own NAD): addresses of its own, or the two Infras collide
  // (InfraAddressConflict) — overlapping CIDRs are one address space to the controller.
  await user.apply(
    'Infra',
    infra(tenant, 'vlan100', {
      dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' },
      dns: { serverIP: '198.51.100.13' },
      proxy: { serverIP: '198.51.100.14', internalProxyService: '172.30.0.10' },
    }),
  );
  await user.apply('InfraClusterAttachment', attachment(owner, 'alpha'));
  await until('alpha routed', ownerProxy, (p) => routes(p) === 5);
  await until('alpha aggregated', alpha, (o) => conditionsOf(o)[0] === 'Aggregated=True Aggregated');
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('an ungranted attachment in another namespace is refused and takes nothing from the owner', async () => {
  const withApps = {
    ...intruderObject(),
    spec: {
      ...(intruderObject().spec as object),
      appsIngress: {
        enabled: true,
        metallb: { addressPoolName: 'intruder-apps', ipAddressPoolRange: '198.51.100.220-198.51.100.229' },
      },
    },
  };
  await user.apply('InfraClusterAttachment', withApps);
  const seen = await until('intruder judged', intruder, (o) => conditionOf(o, 'Aggregated') !== undefined);
  // Give a wrong verdict time to land on the owner, then check it kept everything (on a build without grants the
  // two attachments were a DuplicateHostedCluster pair and alpha lost its 5 routes).
  await until('tenant proxy written', tenantProxy, (p) => p !== undefined);
  await new Promise((r) => setTimeout(r, 1500));
  expect(routes(await ownerProxy())).toBe(5);
  expect(conditionsOf(await alpha())).toEqual([
    'Aggregated=True Aggregated',
    'Ready=True ReconciliationSucceeded',
  ]);
  expect(conditionsOf(seen)).toEqual([
    'Aggregated=False ReferenceNotPermitted',
    'Ready=False ReferenceNotPermitted',
  ]);
  expect(conditionOf(seen, 'Ready')?.message).toBe(
    `attachment "${tenant}/intruder" names HostedCluster ${owner}/alpha of another namespace, and no HostedClusterGrant in namespace "${owner}" lets attachments of namespace "${tenant}" name it: the attachment is left out of routing, DNS, conflicts and apps ingress`,
  );
  expect(routes(await tenantProxy())).toBe(0);
  const dns = await user.get('DNSServer', tenant, 'vlan100-dns');
  expect(JSON.stringify(dns?.spec)).not.toContain('intruder.example.com');
  // Its apps ingress never reached for the HostedCluster or its kubeconfig Secret.
  expect(hostedReads()).toEqual([]);
});

test('a grant admits it (a duplicate HostedCluster across Infras), and removing the grant gives the routes back', async () => {
  await user.apply('InfraClusterAttachment', intruderObject());
  await until(
    'intruder refused',
    intruder,
    (o) => conditionOf(o, 'Ready')?.reason === 'ReferenceNotPermitted',
  );

  await user.apply('HostedClusterGrant', grant);
  const t = await until(
    'intruder admitted',
    intruder,
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostedCluster',
  );
  expect(conditionOf(t, 'Aggregated')?.message).toBe(
    `attachments "${owner}/alpha" (Infra "vlan100") and "${tenant}/intruder" (Infra "vlan100") reference HostedCluster ${owner}/alpha: both are excluded from routing`,
  );
  await until(
    'alpha excluded',
    alpha,
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostedCluster',
  );
  await until('alpha unrouted', ownerProxy, (p) => routes(p) === 0);

  await user.delete('HostedClusterGrant', owner, 'tenant');
  await until(
    'intruder refused again',
    intruder,
    (o) => conditionOf(o, 'Ready')?.reason === 'ReferenceNotPermitted',
  );
  await until('alpha aggregated again', alpha, (o) => conditionsOf(o)[0] === 'Aggregated=True Aggregated');
  await until('alpha routed again', ownerProxy, (p) => routes(p) === 5);
  await user.delete('InfraClusterAttachment', tenant, 'intruder');
});

test('alone, an ungranted attachment never reads the HostedCluster or its kubeconfig Secret; granted, it does', async () => {
  // HyperShift's HostedCluster delta, whose kubeconfig Secret does not parse: reading both ends in
  // HostedClusterAccessFailed, so the status shows whether the operator reached for them.
  await user.apply('Secret', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'delta-admin-kubeconfig', namespace: owner },
    data: { kubeconfig: Buffer.from('not: [a kubeconfig').toString('base64') },
  });
  const hc = {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name: 'delta', namespace: owner },
  };
  await user.apply('HostedCluster', { ...hc, spec: {} });
  await user.applyStatus('HostedCluster', {
    ...hc,
    status: { kubeconfig: { name: 'delta-admin-kubeconfig' } },
  });
  const base = attachment(tenant, 'lonely', { hc: 'delta' });
  const spec = base.spec as { hostedClusterRef: { namespace: string } };
  await user.apply('InfraClusterAttachment', {
    ...base,
    spec: {
      ...spec,
      hostedClusterRef: { ...spec.hostedClusterRef, namespace: owner },
      appsIngress: {
        enabled: true,
        metallb: { addressPoolName: 'lonely-apps', ipAddressPoolRange: '198.51.100.230-198.51.100.239' },
      },
    },
  });
  const lonely = () => user.get('InfraClusterAttachment', tenant, 'lonely');
  const seen = await until('lonely judged', lonely, (o) => conditionOf(o, 'Ready') !== undefined);
  await new Promise((r) => setTimeout(r, 1500));
  expect(hostedReads()).toEqual([]);
  expect(conditionOf(seen, 'Ready')?.reason).toBe('ReferenceNotPermitted');

  await user.apply('HostedClusterGrant', {
    ...grant,
    metadata: { name: 'lonely', namespace: owner },
    spec: { from: [{ namespace: tenant }], to: [{ name: 'delta' }] },
  });
  await until('lonely reached its HostedCluster', lonely, (o) => {
    const st = (o?.status as { appsIngressStatus?: { message?: string } } | undefined)?.appsIngressStatus;
    return st?.message?.includes('does not parse') ?? false;
  });
  expect(hostedReads()).toEqual(
    expect.arrayContaining([
      `GET /apis/hypershift.openshift.io/v1beta1/namespaces/${owner}/hostedclusters/delta`,
    ]),
  );
  // The grant gone, its deletion does not reach into the hosted cluster either: the finalizer goes at once.
  await user.delete('HostedClusterGrant', owner, 'lonely');
  await until(
    'lonely refused again',
    lonely,
    (o) => conditionOf(o, 'Ready')?.reason === 'ReferenceNotPermitted',
  );
  const before = hostedReads().length;
  await user.delete('InfraClusterAttachment', tenant, 'lonely');
  await until('lonely gone', lonely, (o) => o === undefined);
  expect(hostedReads()).toHaveLength(before);
});

test("a control-plane namespace that is not the HostedCluster's is refused, and no Role is written there", async () => {
  const bravo = attachment(owner, 'bravo');
  await user.apply('InfraClusterAttachment', {
    ...bravo,
    spec: { ...(bravo.spec as object), controlPlaneNamespace: 'kube-system' },
  });
  const b = await until(
    'bravo judged',
    () => user.get('InfraClusterAttachment', owner, 'bravo'),
    (o) => conditionOf(o, 'Ready') !== undefined,
  );
  await new Promise((r) => setTimeout(r, 1500));
  // On a build that took the field as given, kube-system was a VMI namespace and a RoleBinding was written there.
  const dhcp = await user.get('DHCPServer', owner, 'vlan100-dhcp');
  expect((dhcp?.spec as { kubevirt?: { namespaces?: string[] } }).kubevirt?.namespaces).toEqual([
    `${owner}-alpha`,
  ]);
  expect(await user.get('RoleBinding', 'kube-system', `oooi-dhcp-vmi.${owner}.vlan100-dhcp`)).toBeUndefined();
  expect(routes(await ownerProxy())).toBe(5);
  expect(conditionOf(b, 'Ready')).toMatchObject({
    status: 'False',
    reason: 'ControlPlaneNamespaceMismatch',
    message: `spec.controlPlaneNamespace "kube-system" of attachment "${owner}/bravo" is not the control-plane namespace of HostedCluster ${owner}/bravo, which HyperShift runs in "${owner}-bravo": the attachment is left out of routing, DNS, conflicts and apps ingress`,
  });
  await user.delete('InfraClusterAttachment', owner, 'bravo');
});
