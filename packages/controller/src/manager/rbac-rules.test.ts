import { controllerRegistrations } from './registrations';
import {
  grantedPermissions,
  permissionKey,
  requiredPermissions,
  rulesFrom,
  type ControllerRegistrations,
} from './rbac-rules';

const infra = { group: 'hostedcluster.densityops.com', version: 'v1alpha1', plural: 'infras', kind: 'Infra' };
const cm = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const nodePool = {
  group: 'hypershift.openshift.io',
  version: 'v1beta1',
  plural: 'nodepools',
  kind: 'NodePool',
};

describe('requiredPermissions', () => {
  test('a cache is list+watch, an owned kind create+patch (apply), a reconciled kind a status patch, declared ones as declared', () => {
    const r: ControllerRegistrations = {
      caches: [
        { kind: infra, scope: 'watched' },
        { kind: cm, scope: 'watched' },
        { kind: nodePool, scope: 'cluster' },
      ],
      applies: [{ kind: cm, scope: 'watched' }],
      gets: [{ kind: cm, scope: 'watched' }],
      statusWrites: [{ kind: infra, scope: 'watched' }],
      owners: [{ kind: infra, scope: 'watched' }],
      events: false,
      leaderElection: false,
      discovery: [nodePool],
      declared: [
        {
          group: 'rbac.authorization.k8s.io',
          resource: 'roles',
          verbs: ['delete'],
          scope: 'cluster',
          purpose: 'use',
        },
        {
          group: 'kubevirt.io',
          resource: 'virtualmachineinstances',
          verbs: ['get'],
          scope: 'cluster',
          purpose: 'grant',
        },
      ],
    };
    expect(requiredPermissions(r).map(permissionKey)).toEqual([
      'cluster delete rbac.authorization.k8s.io/roles',
      'cluster get /apis/hypershift.openshift.io/v1beta1',
      'cluster get kubevirt.io/virtualmachineinstances',
      'cluster list hypershift.openshift.io/nodepools',
      'cluster watch hypershift.openshift.io/nodepools',
      'watched create core/configmaps',
      'watched get core/configmaps',
      'watched list core/configmaps',
      'watched list hostedcluster.densityops.com/infras',
      'watched patch core/configmaps',
      'watched patch hostedcluster.densityops.com/infras/status',
      'watched update hostedcluster.densityops.com/infras/finalizers',
      'watched watch core/configmaps',
      'watched watch hostedcluster.densityops.com/infras',
    ]);
  });

  test('rulesFrom and grantedPermissions are inverse', () => {
    const wanted = requiredPermissions(controllerRegistrations());
    expect(grantedPermissions(rulesFrom(wanted)).map(permissionKey)).toEqual(wanted.map(permissionKey));
  });
});

describe('controllerRegistrations (the production wiring)', () => {
  const keys = requiredPermissions(controllerRegistrations()).map(permissionKey);

  test('our kinds and NodePools follow --namespace; Machines are cluster-wide', () => {
    expect(keys).toContain('watched watch hostedcluster.densityops.com/infras');
    expect(keys).toContain('watched patch hostedcluster.densityops.com/infras/status');
    expect(keys).toContain('watched watch hostedcluster.densityops.com/hostedclustergrants');
    expect(keys).toContain('watched watch hypershift.openshift.io/nodepools');
    expect(keys).toContain('cluster watch cluster.x-k8s.io/machines');
    expect(keys.filter((k) => k.startsWith('cluster ') && k.includes('densityops'))).toEqual([]);
    expect(keys).toContain('cluster patch rbac.authorization.k8s.io/rolebindings');
    expect(keys).toContain('cluster list rbac.authorization.k8s.io/roles');
  });

  test('only a disabled external Service, a NetworkPolicy once the policies are off, a DNS replica Deployment whose address was removed and the VMI readers in other namespaces are deleted; the Infra itself is never patched (only its status)', () => {
    expect(keys.filter((k) => / delete /.test(k))).toEqual([
      'cluster delete rbac.authorization.k8s.io/rolebindings',
      'cluster delete rbac.authorization.k8s.io/roles',
      'watched delete apps/deployments',
      'watched delete core/services',
      'watched delete networking.k8s.io/networkpolicies',
    ]);

    expect(keys).not.toContain('watched patch hostedcluster.densityops.com/infras');
  });
  test('the owners of children may update their finalizers (blockOwnerDeletion under OwnerReferencesPermissionEnforcement), nothing else', () => {
    expect(keys.filter((k) => k.includes('/finalizers'))).toEqual([
      'watched update hostedcluster.densityops.com/dhcpservers/finalizers',
      'watched update hostedcluster.densityops.com/dnsservers/finalizers',
      'watched update hostedcluster.densityops.com/infraclusterattachments/finalizers',
      'watched update hostedcluster.densityops.com/infras/finalizers',
      'watched update hostedcluster.densityops.com/proxyservers/finalizers',
    ]);
  });
  test('the data-plane NetworkPolicies are applied, watched and read in the watched scope only', () => {
    expect(keys.filter((k) => k.includes('networkpolicies'))).toEqual([
      'watched create networking.k8s.io/networkpolicies',
      'watched delete networking.k8s.io/networkpolicies',
      'watched get networking.k8s.io/networkpolicies',
      'watched list networking.k8s.io/networkpolicies',
      'watched patch networking.k8s.io/networkpolicies',
      'watched watch networking.k8s.io/networkpolicies',
    ]);
  });
  test('attachments are patched for their finalizer (and read again after a conflict)', () => {
    expect(keys).toContain('watched patch hostedcluster.densityops.com/infraclusterattachments');
    expect(keys).toContain('watched get hostedcluster.densityops.com/infraclusterattachments');
  });
  test('a hosted-cluster client reads the HostedCluster and its kubeconfig Secret, and the DHCP pair’s Secret is an owned child, in the watched namespace(s) only; Secrets are never deleted', () => {
    expect(keys.filter((k) => /hostedclusters|secrets/.test(k))).toEqual([
      'watched create core/secrets',
      'watched get core/secrets',
      'watched get hypershift.openshift.io/hostedclusters',
      'watched list core/secrets',
      'watched patch core/secrets',
      'watched watch core/secrets',
    ]);
  });

  test('with --namespace, exactly these stay cluster-wide (docs/install.md lists each and why)', () => {
    const verbs = (resource: string, list: string[]) => list.map((v) => `cluster ${v} ${resource}`);
    const rbacVerbs = ['create', 'delete', 'get', 'list', 'patch', 'watch'];
    expect(keys.filter((k) => k.startsWith('cluster '))).toEqual(
      [
        'cluster bind rbac.authorization.k8s.io/clusterroles:oooi-dhcp-vmi-reader',
        ...verbs('rbac.authorization.k8s.io/rolebindings', rbacVerbs),
        // the Roles older versions wrote in other namespaces: watched and deleted, never written
        ...verbs('rbac.authorization.k8s.io/roles', ['delete', 'list', 'watch']),
        'cluster get /apis/cluster.x-k8s.io/v1beta1',
        'cluster get /apis/hypershift.openshift.io/v1beta1',
        ...verbs('cluster.x-k8s.io/machines', ['list', 'watch']),
        ...verbs('core/namespaces', ['list', 'watch']),
      ].sort(),
    );
  });
  test('every owned child is read by name on a cache miss (the Infra children too: a miss right after their create GETs them), and the two reads of the hosted-cluster client', () => {
    expect(keys.filter((k) => / get /.test(k) && k.startsWith('watched'))).toEqual([
      'watched get apps/deployments',
      'watched get core/configmaps',
      'watched get core/persistentvolumeclaims',
      'watched get core/secrets',
      'watched get core/serviceaccounts',
      'watched get core/services',
      'watched get hostedcluster.densityops.com/dhcpservers',
      'watched get hostedcluster.densityops.com/dhcpservers/status',
      'watched get hostedcluster.densityops.com/dnsservers',
      'watched get hostedcluster.densityops.com/infraclusterattachments',
      'watched get hostedcluster.densityops.com/proxyservers',
      'watched get hypershift.openshift.io/hostedclusters',
      'watched get networking.k8s.io/networkpolicies',
      'watched get rbac.authorization.k8s.io/rolebindings',
      'watched get rbac.authorization.k8s.io/roles',
    ]);
  });

  test('what the DHCPServer Roles grant, the controller holds; the VMI-reader ClusterRole it may only bind (RBAC escalation prevention)', () => {
    expect(keys.filter((k) => k.includes('kubevirt.io'))).toEqual([]);
    expect(keys.filter((k) => k.includes('clusterroles'))).toEqual([
      'cluster bind rbac.authorization.k8s.io/clusterroles:oooi-dhcp-vmi-reader',
    ]);
    expect(rulesFrom(requiredPermissions(controllerRegistrations())).cluster).toContainEqual({
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['clusterroles'],
      resourceNames: ['oooi-dhcp-vmi-reader'],
      verbs: ['bind'],
    });
    expect(keys).toContain('watched get hostedcluster.densityops.com/dhcpservers/status');
    expect(keys).toContain('watched patch hostedcluster.densityops.com/dhcpservers/status');
  });

  test('Events and the Lease', () => {
    expect(keys).toContain('watched create events.k8s.io/events');
    expect(keys.filter((k) => k.startsWith('lease '))).toEqual([
      'lease create coordination.k8s.io/leases',
      'lease get coordination.k8s.io/leases',
      'lease update coordination.k8s.io/leases',
      'lease watch coordination.k8s.io/leases',
    ]);
  });
});
