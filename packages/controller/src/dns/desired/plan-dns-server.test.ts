import { stringify } from 'yaml';
import type { DNSServer } from '@oooi/api';
import { expectGolden } from '../testing/golden';
import { exampleDnsServer } from '../testing/fixtures';
import { planDnsServer, type DnsServerPlan } from './plan-dns-server';
import { dnsChildNames, toDnsLabel } from './names';

function rendered(input: DNSServer, defaultImage?: string): DnsServerPlan {
  const r = planDnsServer(input, { defaultImage });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}

const objectsYaml = (r: DnsServerPlan): string => r.objects.map((o) => stringify(o)).join('---\n');

type Spec = Record<string, unknown>;
const podSpec = (r: DnsServerPlan): Spec =>
  ((r.children.deployment.spec as Spec).template as Spec).spec as Spec;
const container = (r: DnsServerPlan): Spec => (podSpec(r).containers as Spec[])[0]!;
const templateMeta = (r: DnsServerPlan): Spec =>
  ((r.children.deployment.spec as Spec).template as Spec).metadata as Spec;

describe('planDnsServer', () => {
  test.each([
    { name: 'examples: VLAN attachment, default image', input: exampleDnsServer(), golden: 'two-views.yaml' },
    {
      name: 'no NetworkAttachmentDefinition, high port, image from spec',
      input: exampleDnsServer({
        clusters: ['alpha'],
        spec: {
          networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3', dnsPort: 5353 },
          image: 'mirror.example.com/coredns/coredns:1.14.7',
        },
      }),
      golden: 'pod-network-only.yaml',
    },
  ])('$name', ({ input, golden }) => expectGolden(__dirname, golden, objectsYaml(rendered(input))));

  test('the ConfigMap data is exactly the files of dns/<namespace>-<name>/', () => {
    const r = rendered(exampleDnsServer());
    expect(r.fileDir).toBe('dns/clusters-vlan100-dns');
    expect(r.children.configMap.data).toEqual(r.files);
    expect(Object.keys(r.files)).toEqual(['Corefile', 'vlan.zone', 'pod-network.zone']);
  });

  test('the operator default image applies only when spec.image is empty', () => {
    expect(container(rendered(exampleDnsServer(), 'registry.local/coredns:1.14.7')).image).toBe(
      'registry.local/coredns:1.14.7',
    );
    expect(container(rendered(exampleDnsServer())).image).toBe('docker.io/coredns/coredns:1.14.7');
  });

  test('the Corefile runs from the shared directory: workingDir is its mount, args name it relatively', () => {
    const c = container(rendered(exampleDnsServer()));
    expect(c.args).toEqual(['-conf', 'Corefile', '-pidfile', '/run/coredns/coredns.pid']);
    expect(c.workingDir).toBe('/etc/coredns');
    expect(c.volumeMounts).toEqual([
      { name: 'config', mountPath: '/etc/coredns', readOnly: true },
      { name: 'run', mountPath: '/run/coredns' },
    ]);
  });

  test('fed by watch: a native config-sync sidecar writes the shared directory and signals CoreDNS', () => {
    const names = dnsChildNames('vlan100-dns');
    const r = planDnsServer(exampleDnsServer(), { configSyncImage: 'registry.local/oooi-controller:1' });
    if (!r.ok) throw new Error('render failed');
    const pod = podSpec(r.value);
    // Never the kubelet's ConfigMap volume: emptyDirs only, so no change waits for the kubelet's sync.
    expect(pod.volumes).toEqual([
      { name: 'config', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
      { name: 'run', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
    ]);
    expect(pod.shareProcessNamespace).toBe(true);
    const [sync, ...more] = pod.initContainers as Spec[];
    expect(more).toEqual([]);
    expect(sync).toMatchObject({
      name: 'config-sync',
      image: 'registry.local/oooi-controller:1',
      restartPolicy: 'Always',
      startupProbe: { httpGet: { path: '/readyz', port: 'sync-health' } },
      volumeMounts: [
        { name: 'config', mountPath: '/etc/coredns' },
        { name: 'run', mountPath: '/run/coredns', readOnly: true },
      ],
    });
    expect(sync!.args).toEqual([
      'config-sync',
      '--namespace',
      'clusters',
      '--configmap',
      names.configMap,
      '--dir',
      '/etc/coredns',
      '--reload-pidfile',
      '/run/coredns/coredns.pid',
      '--health-address',
      '$(POD_IP):8090',
    ]);
    expect(sync!.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
    });
  });

  test("the sidecar's Role lists and watches the one ConfigMap, bound to the pod's ServiceAccount", () => {
    const r = rendered(exampleDnsServer());
    const names = dnsChildNames('vlan100-dns');
    expect(r.children.syncRole.rules).toEqual([
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: [names.configMap],
        verbs: ['list', 'watch'],
      },
    ]);
    expect(r.children.syncRoleBinding).toMatchObject({
      metadata: { name: names.syncRole, namespace: 'clusters' },
      roleRef: { kind: 'Role', name: names.syncRole },
      subjects: [{ kind: 'ServiceAccount', name: names.workload, namespace: 'clusters' }],
    });
    expect(podSpec(r).serviceAccountName).toBe(names.workload);
    expect(r.objects.map((o) => o.kind)).toEqual([
      'ServiceAccount',
      'Role',
      'RoleBinding',
      'ConfigMap',
      'Service',
      'NetworkPolicy',
      'Deployment',
    ]);
  });

  test('non-root on port 53: sysctl, all capabilities dropped but NET_BIND_SERVICE bounded, restricted-compliant', () => {
    const r = rendered(exampleDnsServer());
    expect(podSpec(r).securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '53' }],
    });
    expect(container(r).securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
      readOnlyRootFilesystem: true,
    });
    expect(podSpec(r).dnsPolicy).toBe('Default');
    // The token is the config-sync sidecar's (list/watch of one ConfigMap).
    expect(podSpec(r).automountServiceAccountToken).toBe(true);
  });

  test('a port of 1024 or more needs no sysctl', () => {
    const input = exampleDnsServer({
      spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3', dnsPort: 1053 } },
    });
    expect((podSpec(rendered(input)).securityContext as Spec).sysctls).toBeUndefined();
  });

  test.each([
    { name: '/24', cidr: '198.51.100.0/24', serverIP: '198.51.100.3', want: '198.51.100.3/24' },
    { name: '/26', cidr: '198.51.100.64/26', serverIP: '198.51.100.70', want: '198.51.100.70/26' },
  ])('the Multus static IP takes its prefix from the CIDR ($name)', ({ cidr, serverIP, want }) => {
    const input = exampleDnsServer({
      spec: {
        networkConfig: {
          cidr,
          serverIP,
          networkAttachmentName: 'vlan100',
          networkAttachmentNamespace: 'net',
        },
      },
    });
    const annotations = templateMeta(rendered(input)).annotations as Record<string, string>;
    expect(JSON.parse(annotations['k8s.v1.cni.cncf.io/networks']!)).toEqual([
      { name: 'vlan100', namespace: 'net', ips: [want] },
    ]);
  });

  test('a record change changes only the ConfigMap: no pod-template hash, no rollout', () => {
    const a = rendered(exampleDnsServer());
    const b = rendered(exampleDnsServer({ clusters: ['alpha'] }));
    expect(b.children.deployment).toEqual(a.children.deployment);
    expect(b.children.configMap).not.toEqual(a.children.configMap);
  });

  test('an image, port or network change changes the pod template (rolls out)', () => {
    const base = rendered(exampleDnsServer());
    const variants = [
      exampleDnsServer({ spec: { image: 'other/coredns:1.14.7' } }),
      exampleDnsServer({
        spec: {
          networkConfig: {
            cidr: '198.51.100.0/24',
            serverIP: '198.51.100.9',
            networkAttachmentName: 'vlan100',
          },
        },
      }),
      exampleDnsServer({
        spec: {
          networkConfig: {
            cidr: '198.51.100.0/24',
            serverIP: '198.51.100.3',
            networkAttachmentName: 'vlan100',
            dnsPort: 54,
          },
        },
      }),
    ];
    for (const v of variants) {
      const tmpl = (rendered(v).children.deployment.spec as Spec).template;
      expect(tmpl).not.toEqual((base.children.deployment.spec as Spec).template);
    }
  });

  test('children are controlled by the DNSServer; without a uid (offline) they carry no owner reference', () => {
    const r = rendered(exampleDnsServer());
    for (const o of r.objects) {
      expect(o.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'DNSServer', name: 'vlan100-dns', controller: true }),
      ]);
    }
    const offline = exampleDnsServer();
    const noUid = { ...offline, metadata: { name: 'vlan100-dns', namespace: 'clusters' } };
    for (const o of rendered(noUid).objects) expect(o.metadata?.ownerReferences).toBeUndefined();
  });

  test.each([
    { name: 'a DNS-1035 label stays', input: 'vlan100-dns', want: 'vlan100-dns' },
    { name: 'dots are replaced, hash added', input: 'dns.vlan100', want: /^dns-vlan100-[0-9a-f]{8}$/ },
    { name: 'a leading digit gets a letter', input: '100-dns', want: /^d-100-dns-[0-9a-f]{8}$/ },
    { name: 'too long is cut to 63', input: 'x'.repeat(80), want: /^x{54}-[0-9a-f]{8}$/ },
  ])('toDnsLabel: $name', ({ input, want }) => {
    const got = toDnsLabel(input);
    expect(got.length).toBeLessThanOrEqual(63);
    if (typeof want === 'string') expect(got).toBe(want);
    else expect(got).toMatch(want);
  });

  test('two long names that share a prefix get distinct children', () => {
    const a = dnsChildNames(`${'a'.repeat(70)}-one`);
    const b = dnsChildNames(`${'a'.repeat(70)}-two`);
    expect(a.workload).not.toBe(b.workload);
  });
});
