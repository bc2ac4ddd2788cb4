// The API-server side of the KubeVirt e2e test: namespaces, a DHCPServer whose status the "controller" writes
// (observedGeneration, Ready, Available under its own field manager), the ServiceAccount oooi-dhcp runs as with
// exactly the Roles packages/dhcp/README.md documents, a TokenRequest kubeconfig for it, and VMIs / VMs written
// the way KubeVirt writes them (object by its API, status through the status subresource).
import { GROUP, VERSION } from '@oooi/api';
import { vmiObject, vmObject, type VmiSpec } from '@oooi/dhcp/testing';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KindDescriptor, type KubeObject } from '@oooi/kube';
import { writeTokenKubeconfig } from '../chart/chart-support';

export const kinds = {
  Namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  ServiceAccount: { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' },
  Role: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role' },
  RoleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
  },
  DHCPServer: { group: GROUP, version: VERSION, plural: 'dhcpservers', kind: 'DHCPServer' },
  VMI: {
    group: 'kubevirt.io',
    version: 'v1',
    plural: 'virtualmachineinstances',
    kind: 'VirtualMachineInstance',
  },
  VM: { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines', kind: 'VirtualMachine' },
} satisfies Record<string, KindDescriptor>;

export interface Cluster {
  readonly admin: KubeClient;
  readonly rest: KubeConfigRest;
  /** Writes VMI status as KubeVirt's virt-handler would (its own field manager, status subresource). */
  readonly virt: KubeClient;
  /** Writes DHCPServer status as the oooi controller would. */
  readonly controller: KubeClient;
  readonly apiPort: number;
}

export async function connect(kubeconfig: string): Promise<Cluster> {
  const kc = await loadKubeConfig(kubeconfig);
  const rest = new KubeConfigRest({ kubeConfig: kc });
  return {
    rest,
    admin: new KubeClient({ rest, fieldManager: 'e2e-admin' }),
    virt: new KubeClient({ rest, fieldManager: 'virt-handler' }),
    controller: new KubeClient({ rest, fieldManager: 'oooi-controller' }),
    apiPort: Number(new URL(kc.getCurrentCluster()!.server).port),
  };
}

const obj = (
  kind: KindDescriptor,
  namespace: string | undefined,
  name: string,
  rest: object,
): KubeObject => ({
  apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`,
  kind: kind.kind,
  metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
  ...rest,
});

export async function namespace(c: Cluster, name: string): Promise<void> {
  await c.admin.apply(kinds.Namespace, obj(kinds.Namespace, undefined, name, {}), { force: true });
}

/** The DHCPServer, with the controller's part of its status. */
export async function dhcpServer(c: Cluster, ns: string, name: string): Promise<void> {
  await c.admin.apply(
    kinds.DHCPServer,
    obj(kinds.DHCPServer, ns, name, {
      spec: {
        networkConfig: {
          cidr: '198.51.100.0/24',
          gateway: '198.51.100.1',
          serverIP: '198.51.100.2',
          networkAttachmentName: 'vlan-net',
        },
        leaseConfig: { rangeStart: '198.51.100.100', rangeEnd: '198.51.100.119', leaseTime: '10m' },
      },
    }),
    { force: true },
  );
  await controllerStatus(c, ns, name);
}

/** What the oooi controller applies to the DHCPServer status (its own fields only). */
export async function controllerStatus(c: Cluster, ns: string, name: string): Promise<void> {
  const at = '2026-01-01T00:00:00Z';
  await c.controller.applyStatus(
    kinds.DHCPServer,
    obj(kinds.DHCPServer, ns, name, {
      status: {
        observedGeneration: 1,
        configMapName: `${name}-config`,
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Provisioned', message: 'ok', lastTransitionTime: at },
          {
            type: 'Available',
            status: 'True',
            reason: 'DeploymentAvailable',
            message: 'ok',
            lastTransitionTime: at,
          },
        ],
      },
    }),
    { force: true },
  );
}

/**
 * The ServiceAccount oooi-dhcp runs as, bound to exactly the Roles of packages/dhcp/README.md ("KubeVirt",
 * RBAC): list and watch VMIs and VMs in each VM namespace; get and patch its own DHCPServer's status.
 */
export async function serviceAccount(
  c: Cluster,
  o: { namespace: string; name: string; vmNamespaces: readonly string[]; dhcpServer: string },
): Promise<void> {
  const sa = o.name;
  await c.admin.apply(kinds.ServiceAccount, obj(kinds.ServiceAccount, o.namespace, sa, {}), { force: true });
  const bind = async (ns: string, role: string, rules: object[]) => {
    await c.admin.apply(kinds.Role, obj(kinds.Role, ns, role, { rules }), { force: true });
    await c.admin.apply(
      kinds.RoleBinding,
      obj(kinds.RoleBinding, ns, role, {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: o.namespace }],
      }),
      { force: true },
    );
  };
  for (const ns of o.vmNamespaces) {
    await bind(ns, `${sa}-vmis`, [
      {
        apiGroups: ['kubevirt.io'],
        resources: ['virtualmachineinstances', 'virtualmachines'],
        verbs: ['list', 'watch'],
      },
    ]);
  }
  await bind(o.namespace, `${sa}-status`, [
    {
      apiGroups: [GROUP],
      resources: ['dhcpservers/status'],
      resourceNames: [o.dhcpServer],
      verbs: ['get', 'patch'],
    },
  ]);
}

/** A kubeconfig for the same apiserver that authenticates with a TokenRequest token of the ServiceAccount. */
export async function tokenKubeconfig(
  c: Cluster,
  o: { adminKubeconfig: string; namespace: string; name: string; out: string },
): Promise<string> {
  const res = await c.rest.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${o.namespace}/serviceaccounts/${o.name}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  return writeTokenKubeconfig(o.adminKubeconfig, res.status.token, o.out);
}

/**
 * A VMI as KubeVirt creates it (the object, then its status through the status subresource), attached to the
 * NetworkAttachmentDefinition `vlan-net` of its own namespace unless S names another network.
 */
export async function putVmi(c: Cluster, s: VmiSpec & { namespace: string }): Promise<void> {
  const { status, metadata, ...body } = vmiObject({ network: 'vlan-net', ...s });
  // uid and creationTimestamp are the apiserver's to set
  const { uid: _uid, creationTimestamp: _created, ...meta } = metadata;
  await c.admin.apply(kinds.VMI, { ...body, metadata: meta }, { force: true });
  if (Object.keys(status).length > 0) {
    await c.virt.applyStatus(
      kinds.VMI,
      { ...obj(kinds.VMI, s.namespace, s.name, {}), status },
      { force: true },
    );
  }
}

/** A VirtualMachine; returns its uid (for the VMI's owner reference). */
export async function putVm(
  c: Cluster,
  s: { namespace: string; name: string; mac?: string },
): Promise<string> {
  const { metadata, ...rest } = vmObject({ network: 'vlan-net', ...s, uid: '' });
  const { uid: _uid, ...meta } = metadata;
  await c.admin.apply(kinds.VM, { ...rest, metadata: meta }, { force: true });
  const got = await c.admin.get(kinds.VM, { namespace: s.namespace, name: s.name });
  return got!.metadata!.uid!;
}

export async function remove(
  c: Cluster,
  kind: KindDescriptor,
  namespace: string,
  name: string,
): Promise<void> {
  await c.admin.delete(kind, { namespace, name });
}
