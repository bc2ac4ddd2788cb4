import { stringify } from 'yaml';
import type { ProxyServer } from '@oooi/api';
import { expectGolden } from '@oooi/api/testing';
import { shuffled } from '../../testing/fixtures';
import { infraChildProxyServer, standaloneProxyServer } from '../testing/fixtures';
import { planProxyServer, type ProxyServerPlan } from './plan-proxy-server';
import { proxyPodSelector } from '../../workload/proxy-pods';

function rendered(input: ProxyServer, o: { proxy?: string; xds?: string } = {}): ProxyServerPlan {
  const r = planProxyServer(input, { defaultProxyImage: o.proxy, defaultXdsImage: o.xds });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value;
}

const objectsYaml = (r: ProxyServerPlan): string => r.objects.map((o) => stringify(o)).join('---\n');
type Spec = Record<string, unknown>;
const podSpec = (r: ProxyServerPlan): Spec =>
  ((r.children.deployment.spec as Spec).template as Spec).spec as Spec;
const container = (r: ProxyServerPlan, name: string): Spec =>
  (podSpec(r).containers as Spec[]).find((c) => c.name === name)!;
const template = (r: ProxyServerPlan) =>
  (r.children.deployment.spec as Spec).template as { metadata: { annotations: Record<string, string> } };

describe('planProxyServer', () => {
  test.each([
    {
      name: 'Infra child: two attachments, images from spec',
      input: infraChildProxyServer(),
      golden: 'infra-child.yaml',
    },
    {
      name: 'standalone: no backends, the default images',
      input: standaloneProxyServer(),
      golden: 'standalone.yaml',
    },
  ])('$name', ({ input, golden }) => expectGolden(__dirname, golden, objectsYaml(rendered(input))));

  test('the same backends in another order render byte-identical children', () => {
    const p = infraChildProxyServer();
    const again = infraChildProxyServer({ backends: shuffled(p.spec.backends ?? []) });
    expect(objectsYaml(rendered(again))).toBe(objectsYaml(rendered(p)));
  });

  test('apply order: ServiceAccount, the sidecar RBAC, bootstrap, Service, NetworkPolicy, Deployment', () => {
    expect(
      rendered(infraChildProxyServer()).objects.map((o) => `${String(o.kind)} ${o.metadata?.name}`),
    ).toEqual([
      'ServiceAccount vlan100-proxy',
      'Role vlan100-proxy-xds',
      'RoleBinding vlan100-proxy-xds',
      'ConfigMap vlan100-proxy-config',
      'Service vlan100-proxy',
      'NetworkPolicy vlan100-proxy',
      'Deployment vlan100-proxy',
    ]);
  });

  test('the ConfigMap holds the bootstrap: delta ADS to the loopback sidecar, the node id, admin on loopback', () => {
    const r = rendered(infraChildProxyServer({ xdsPort: 18100, adminPort: 19901 }));
    expect(r.children.configMap.data).toEqual(r.files);
    const doc = JSON.parse(r.files['envoy.yaml']!) as {
      node: { id: string };
      admin: { address: { socketAddress: unknown } };
      dynamicResources: { adsConfig: { apiType: string } };
      staticResources: { clusters: { loadAssignment: unknown }[] };
    };
    expect(doc.node.id).toBe('clusters/vlan100-proxy');
    expect(doc.admin.address.socketAddress).toEqual({ address: '127.0.0.1', portValue: 19901 });
    expect(doc.dynamicResources.adsConfig.apiType).toBe('DELTA_GRPC');
    expect(JSON.stringify(doc.staticResources.clusters[0]!.loadAssignment)).toContain(
      '{"address":"127.0.0.1","portValue":18100}',
    );
    expect(container(r, 'oooi-xds').args).toEqual(
      expect.arrayContaining(['--listen', '127.0.0.1:18100', '--envoy-admin', '127.0.0.1:19901']),
    );
  });

  test('the Service: named after the ProxyServer, its pods only, spec.port then each backend port, never admin or xDS', () => {
    const r = rendered(infraChildProxyServer());
    const spec = r.children.service.spec as { type: string; selector: unknown; ports: Spec[] };
    expect(r.children.service.metadata?.name).toBe('vlan100-proxy');
    expect(spec.type).toBe('ClusterIP');
    expect(spec.selector).toEqual(proxyPodSelector('vlan100-proxy'));
    expect(spec.ports).toEqual([
      { name: 'proxy', protocol: 'TCP', port: 443, targetPort: 443 },
      { name: 'port-6443', protocol: 'TCP', port: 6443, targetPort: 6443 },
    ]);
    expect(spec.ports.map((p) => p.port)).not.toEqual(expect.arrayContaining([9901, 18000, 18001]));
  });

  test('no backends: the Service still has its main port (a Service needs one)', () => {
    const ports = (rendered(standaloneProxyServer()).children.service.spec as { ports: Spec[] }).ports;
    expect(ports).toEqual([{ name: 'proxy', protocol: 'TCP', port: 443, targetPort: 443 }]);
  });

  test('a new attachment changes the Service ports and nothing in the pod template', () => {
    const p = infraChildProxyServer();
    const more = infraChildProxyServer({
      backends: [
        ...(p.spec.backends ?? []),
        {
          name: 'charlie-ingress-http',
          hostname: '*.apps.charlie.example.com',
          port: 80,
          targetService: '198.51.100.60',
          targetPort: 80,
          targetNamespace: 'clusters-charlie',
        },
      ],
    });
    expect((rendered(more).children.deployment.spec as Spec).template).toEqual(
      (rendered(p).children.deployment.spec as Spec).template,
    );
    expect((rendered(more).children.service.spec as { ports: Spec[] }).ports.map((x) => x.name)).toEqual([
      'proxy',
      'port-80',
      'port-6443',
    ]);
  });

  test('one pod on the static IP: one replica, Recreate, the Multus address with the prefix of the CIDR', () => {
    const r = rendered(infraChildProxyServer());
    const d = r.children.deployment.spec as Spec;
    expect([d.replicas, d.strategy]).toEqual([1, { type: 'Recreate' }]);
    expect(JSON.parse(template(r).metadata.annotations['k8s.v1.cni.cncf.io/networks']!)).toEqual([
      { name: 'vlan100', namespace: 'clusters', ips: ['198.51.100.4/24'] },
    ]);
  });

  test('without a VLAN (pod network only) a rolling update keeps Envoy serving', () => {
    const net = { cidr: '198.51.100.0/25', serverIP: '198.51.100.4' };
    const d = rendered(standaloneProxyServer({ networkConfig: net })).children.deployment.spec as Spec;
    expect(d.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    expect(
      template(rendered(standaloneProxyServer({ networkConfig: net }))).metadata.annotations,
    ).not.toHaveProperty('k8s.v1.cni.cncf.io/networks');
  });

  test('non-root: the port sysctl for every port, NET_BIND_SERVICE only on Envoy, nothing on the sidecar', () => {
    const r = rendered(infraChildProxyServer());
    expect(podSpec(r).securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }],
    });
    const sc = (caps: Spec) => ({
      allowPrivilegeEscalation: false,
      capabilities: caps,
      readOnlyRootFilesystem: true,
    });
    expect(container(r, 'envoy').securityContext).toEqual(sc({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] }));
    expect(container(r, 'oooi-xds').securityContext).toEqual(sc({ drop: ['ALL'] }));
  });

  test('readiness through the sidecar on the pod IP; Envoy admin stays on loopback', () => {
    const bootstrap = JSON.parse(
      (rendered(infraChildProxyServer()).children.configMap.data as Record<string, string>)['envoy.yaml']!,
    ) as {
      admin: unknown;
      staticResources: { listeners: { name: string; address: unknown; socketOptions: unknown[] }[] };
    };
    expect(bootstrap.admin).toEqual({
      address: { socketAddress: { address: '127.0.0.1', portValue: 9901 } },
    });
    // the stats listener: every address of eth0 (SO_BINDTODEVICE, level SOL_SOCKET), never the VLAN's net1
    expect(bootstrap.staticResources.listeners).toMatchObject([
      {
        name: 'oooi_stats',
        address: { socketAddress: { address: '0.0.0.0', portValue: 9902 } },
        socketOptions: [{ level: 1, name: 25, bufValue: Buffer.from('eth0').toString('base64') }],
      },
    ]);
    const r = rendered(infraChildProxyServer());
    const xds = container(r, 'oooi-xds');
    expect(xds.args).toEqual([
      '--namespace',
      'clusters',
      '--name',
      'vlan100-proxy',
      '--listen',
      '127.0.0.1:18000',
      '--health-address',
      '$(POD_IP):18001',
      '--envoy-admin',
      '127.0.0.1:9901',
    ]);
    expect([(xds.readinessProbe as Spec).httpGet, (xds.livenessProbe as Spec).httpGet]).toEqual([
      { path: '/readyz', port: 'health', scheme: 'HTTP' },
      { path: '/healthz', port: 'health', scheme: 'HTTP' },
    ]);
    // its one port is the stats listener (/stats/prometheus of admin, nothing else: e2e/monitoring)
    expect(container(r, 'envoy').ports).toEqual([
      { name: 'envoy-stats', containerPort: 9902, protocol: 'TCP' },
    ]);
    expect(container(r, 'envoy').args).toEqual([
      '-c',
      '/etc/envoy/envoy.yaml',
      '--log-level',
      'info',
      '--concurrency',
      '2',
      '--disable-hot-restart',
    ]);
  });

  test('the sidecar Role: list and watch its ProxyServer, patch its status, nothing else', () => {
    const r = rendered(infraChildProxyServer());
    expect(r.children.xdsRole.rules).toEqual([
      {
        apiGroups: ['hostedcluster.densityops.com'],
        resources: ['proxyservers'],
        resourceNames: ['vlan100-proxy'],
        verbs: ['list', 'watch'],
      },
      {
        apiGroups: ['hostedcluster.densityops.com'],
        resources: ['proxyservers/status'],
        resourceNames: ['vlan100-proxy'],
        verbs: ['patch'],
      },
    ]);
    expect(r.children.xdsRoleBinding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'vlan100-proxy', namespace: 'clusters' },
    ]);
    expect(podSpec(r).serviceAccountName).toBe('vlan100-proxy');
  });

  test.each([
    {
      name: 'operator defaults when the spec names no image',
      input: standaloneProxyServer(),
      want: ['registry.local/envoy:1', 'registry.local/oooi-xds:1'],
    },
    {
      name: 'the spec’s images win',
      input: infraChildProxyServer(),
      want: ['docker.io/envoyproxy/envoy:v1.36.4', 'ghcr.io/oooi-project/oooi-xds:0.1.0'],
    },
  ])('$name', ({ input, want }) => {
    const r = rendered(input, { proxy: 'registry.local/envoy:1', xds: 'registry.local/oooi-xds:1' });
    expect([container(r, 'envoy').image, container(r, 'oooi-xds').image]).toEqual(want);
  });

  test('a bootstrap change (admin port) changes the pod template hash: Envoy reads the file once', () => {
    const a = template(rendered(infraChildProxyServer())).metadata.annotations;
    const b = template(rendered(infraChildProxyServer({ adminPort: 9902 }))).metadata.annotations;
    expect(a['hostedcluster.densityops.com/bootstrap-hash']).not.toBe(
      b['hostedcluster.densityops.com/bootstrap-hash'],
    );
  });

  test.each([
    {
      name: 'spec.port on the sidecar health port',
      input: standaloneProxyServer({ port: 18001 }),
      wantError: 'spec.port: Invalid value: 18001',
    },
    {
      name: 'a backend on the sidecar health port',
      input: standaloneProxyServer({
        backends: [
          {
            name: 'x',
            hostname: 'x.example.com',
            port: 18001,
            targetService: 'svc',
            targetPort: 1,
            targetNamespace: 'ns',
          },
        ],
      }),
      wantError: 'spec.backends[0].port: Invalid value: 18001',
    },
  ])('$name', ({ input, wantError }) => {
    const r = planProxyServer(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')).toContain(wantError);
  });
});
