import { stringify } from 'yaml';
import type { DHCPServer } from '@oooi/api';
import { expectGolden } from '@oooi/api/testing';
import { exampleDhcpServer, infraChildDhcpServer } from '../testing/fixtures';
import { planDhcpServer, type DhcpServerPlan } from './plan-dhcp-server';
import { dhcpChildNames, isVmiReaderOf, vmiReaderToDhcpServerRequests } from './names';
import { VMI_READER_CLUSTER_ROLE, vmiReaderClusterRole } from './dhcp-rbac';

function rendered(input: DHCPServer, defaultImage?: string): DhcpServerPlan {
  const r = planDhcpServer(input, { defaultImage });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}

const objectsYaml = (r: DhcpServerPlan): string => r.objects.map((o) => stringify(o)).join('---\n');
type Spec = Record<string, unknown>;
const podSpec = (r: DhcpServerPlan): Spec =>
  ((r.children.deployment.spec as Spec).template as Spec).spec as Spec;
const container = (r: DhcpServerPlan): Spec => (podSpec(r).containers as Spec[])[0]!;
const kindAndPlace = (r: DhcpServerPlan) =>
  r.objects.map((o) => `${String(o.kind)} ${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`);

describe('planDhcpServer', () => {
  test.each([
    {
      name: 'standalone example: PVC, one VMI namespace, default image',
      input: exampleDhcpServer(),
      golden: 'standalone.yaml',
    },
    {
      name: 'Infra child: emptyDir, two VMI namespaces, image from spec',
      input: infraChildDhcpServer(),
      golden: 'infra-child.yaml',
    },
  ])('$name', ({ input, golden }) => expectGolden(__dirname, golden, objectsYaml(rendered(input))));

  test('apply order: owned children first (RBAC, config, storage, Service, NetworkPolicy, Deployment), then the VMI readers', () => {
    expect(kindAndPlace(rendered(exampleDhcpServer()))).toEqual([
      'ServiceAccount lab/lab-dhcp',
      'Role lab/lab-dhcp-status',
      'RoleBinding lab/lab-dhcp-status',
      'ConfigMap lab/lab-dhcp-config',
      'PersistentVolumeClaim lab/lab-dhcp-leases',
      'Service lab/lab-dhcp',
      'NetworkPolicy lab/lab-dhcp',
      'Deployment lab/lab-dhcp',
      'RoleBinding lab-vms/oooi-dhcp-vmi.lab.lab-dhcp',
    ]);
  });

  test('the VMI readers: a RoleBinding per listed namespace to the shipped ClusterRole, no Role', () => {
    const r = rendered(exampleDhcpServer());
    expect(r.vmiReaders).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: {
          name: 'oooi-dhcp-vmi.lab.lab-dhcp',
          namespace: 'lab-vms',
          labels: expect.objectContaining({ 'hostedcluster.densityops.com/dhcpserver-namespace': 'lab' }),
          annotations: { 'hostedcluster.densityops.com/dhcpserver-name': 'lab-dhcp' },
        },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: VMI_READER_CLUSTER_ROLE,
        },
        subjects: [{ kind: 'ServiceAccount', name: 'lab-dhcp', namespace: 'lab' }],
      },
    ]);
    expect(vmiReaderClusterRole()).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'oooi-dhcp-vmi-reader' },
      rules: [
        {
          apiGroups: ['kubevirt.io'],
          resources: ['virtualmachineinstances', 'virtualmachines'],
          verbs: ['list', 'watch'],
        },
      ],
    });
  });

  test('the ConfigMap data is exactly the file of dhcp/<namespace>-<name>/', () => {
    const r = rendered(exampleDhcpServer());
    expect(r.fileDir).toBe('dhcp/lab-lab-dhcp');
    expect(r.children.configMap.data).toEqual(r.files);
    expect(Object.keys(r.files)).toEqual(['config.json']);
  });

  test('the operator default image applies only when spec.image is empty', () => {
    expect(container(rendered(exampleDhcpServer(), 'registry.local/oooi-dhcp:1')).image).toBe(
      'registry.local/oooi-dhcp:1',
    );
    expect(container(rendered(exampleDhcpServer())).image).toBe('ghcr.io/oooi-project/oooi-dhcp:0.1.0');
    expect(
      container(rendered(exampleDhcpServer({ image: 'own/dhcp:2' }), 'registry.local/oooi-dhcp:1')).image,
    ).toBe('own/dhcp:2');
  });

  test('one pod per pool: one replica, Recreate, the Multus static IP with the prefix of the CIDR', () => {
    const d = rendered(exampleDhcpServer()).children.deployment.spec as Spec;
    expect([d.replicas, d.strategy]).toEqual([1, { type: 'Recreate' }]);
    const annotations = (d.template as Spec).metadata as { annotations: Record<string, string> };
    expect(JSON.parse(annotations.annotations['k8s.v1.cni.cncf.io/networks']!)).toEqual([
      { name: 'lab-vlan', namespace: 'lab', ips: ['198.51.100.2/25'] },
    ]);
  });

  test('non-root on UDP 67: the sysctl, NET_BIND_SERVICE and NET_RAW only, fsGroup for the lease volume', () => {
    const r = rendered(exampleDhcpServer());
    expect(podSpec(r).securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '67' }],
      fsGroup: 65532,
      fsGroupChangePolicy: 'OnRootMismatch',
    });
    expect(container(r).securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] },
      readOnlyRootFilesystem: true,
    });
  });

  test('probes and metrics on the pod IP, never on the VLAN interface; the config also by watch of its ConfigMap', () => {
    const c = container(rendered(exampleDhcpServer()));
    expect(c.args).toEqual([
      '--config',
      '/etc/oooi-dhcp/config.json',
      '--config-configmap',
      'lab/lab-dhcp-config',
      '--interface',
      'net1',
      '--lease-dir',
      '/var/lib/oooi-dhcp',
      '--metrics-addr',
      '$(POD_IP):9167',
      '--health-addr',
      '$(POD_IP):8081',
    ]);
    expect(c.env).toEqual([{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]);
    expect([(c.livenessProbe as Spec).httpGet, (c.readinessProbe as Spec).httpGet]).toEqual([
      { path: '/healthz', port: 'health', scheme: 'HTTP' },
      { path: '/readyz', port: 'health', scheme: 'HTTP' },
    ]);
  });

  test.each([
    {
      name: 'a storage class: a PVC of the size asked for',
      input: exampleDhcpServer({ leaseStorage: { storageClassName: 'fast', size: '1Gi' } }),
      claim: { storageClassName: 'fast', size: '1Gi' },
      volume: { name: 'leases', persistentVolumeClaim: { claimName: 'lab-dhcp-leases' } },
    },
    {
      name: 'the default size',
      input: exampleDhcpServer({ leaseStorage: { storageClassName: 'fast' } }),
      claim: { storageClassName: 'fast', size: '64Mi' },
      volume: { name: 'leases', persistentVolumeClaim: { claimName: 'lab-dhcp-leases' } },
    },
    {
      name: 'no storage class: an emptyDir, no PVC',
      input: exampleDhcpServer({ leaseStorage: undefined }),
      claim: undefined,
      volume: { name: 'leases', emptyDir: {} },
    },
  ])('$name', ({ input, claim, volume }) => {
    const r = rendered(input);
    const spec = r.children.leaseClaim?.spec as
      { storageClassName: string; resources: { requests: { storage: string } } } | undefined;
    expect(
      spec && { storageClassName: spec.storageClassName, size: spec.resources.requests.storage },
    ).toEqual(claim);
    expect((podSpec(r).volumes as Spec[])[1]).toEqual(volume);
  });

  test('the pod Role lets the ServiceAccount get and patch the status of this DHCPServer only, and watch its one ConfigMap', () => {
    const r = rendered(exampleDhcpServer());
    expect(r.children.statusRole.rules).toEqual([
      {
        apiGroups: ['hostedcluster.densityops.com'],
        resources: ['dhcpservers/status'],
        resourceNames: ['lab-dhcp'],
        verbs: ['get', 'patch'],
      },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['lab-dhcp-config'],
        verbs: ['list', 'watch'],
      },
    ]);
    expect(r.children.statusRoleBinding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'lab-dhcp', namespace: 'lab' },
    ]);
    expect(r.children.statusRole.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'DHCPServer',
      name: 'lab-dhcp',
    });
  });

  test('VMI readers: a RoleBinding per namespace, no owner reference, found again by label and annotation', () => {
    const r = rendered(infraChildDhcpServer());
    expect(r.vmiReaders.map((o) => `${String(o.kind)} ${o.metadata?.namespace ?? ''}`)).toEqual([
      'RoleBinding clusters-alpha',
      'RoleBinding clusters-bravo',
    ]);
    const [binding] = r.vmiReaders as [Spec & { metadata: Spec }];
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'vlan100-dhcp', namespace: 'clusters' },
    ]);
    expect(r.vmiReaders.every((o) => o.metadata?.ownerReferences === undefined)).toBe(true);
    expect(r.vmiReaders.every((o) => isVmiReaderOf(o, r.names))).toBe(true);
    expect(vmiReaderToDhcpServerRequests(binding)).toEqual([{ namespace: 'clusters', name: 'vlan100-dhcp' }]);
    expect(isVmiReaderOf(binding, dhcpChildNames('other', 'vlan100-dhcp'))).toBe(false);
  });

  test('a long dotted name: children cut to a DNS label, the VMI readers still name the DHCPServer', () => {
    const name = `lab.${'d'.repeat(80)}`;
    const r = rendered({
      ...exampleDhcpServer(),
      metadata: { name, namespace: 'lab', uid: 'u', generation: 1 },
    });
    expect(r.names.workload).toMatch(/^lab-d+-[0-9a-f]{8}$/);
    expect(r.names.workload.length).toBeLessThanOrEqual(63);
    expect(r.names.vmiReader).toBe(`oooi-dhcp-vmi.lab.${r.names.workload}`);
    expect(vmiReaderToDhcpServerRequests(r.vmiReaders[0]!)).toEqual([{ namespace: 'lab', name }]);
  });
});
