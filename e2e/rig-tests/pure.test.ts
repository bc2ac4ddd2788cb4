// Unit tests of the rig's pure parts (they live under e2e/ because the unit project only covers packages/).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkInterfaceAddress,
  cidrContains,
  cidrWithin,
  containerArgv,
  defaultImageMap,
  expandVars,
  hostOf,
  oooiEntrypoint,
  parseEnvFile,
  parseNetworksAnnotation,
  planPod,
  rewritePaths,
  secretSource,
  volumeFiles,
} from '@oooi/rig';

describe('addresses', () => {
  it('accepts only addresses inside the test ranges and the network', () => {
    expect(checkInterfaceAddress('198.51.100.3/24', '198.51.100.0/24')).toBe('198.51.100.3/24');
    expect(() => checkInterfaceAddress('192.0.2.5/24', '192.0.2.0/24')).toThrow(/outside the test ranges/);
    expect(() => checkInterfaceAddress('203.0.113.5/24', '198.51.100.0/24')).toThrow(/not in network/);
    expect(() => checkInterfaceAddress('198.51.100.255/24', '198.51.100.0/24')).toThrow(/broadcast/);
    expect(() => checkInterfaceAddress('198.51.100.7/25', '198.51.100.0/24')).toThrow(/prefix length/);
    expect(cidrContains('198.51.100.0/24', '198.51.100.200')).toBe(true);
    expect(cidrContains('198.51.100.0/24', '198.51.101.1')).toBe(false);
    expect(cidrWithin('198.51.100.128/25', '198.51.100.0/24')).toBe(true);
    expect(hostOf('203.0.113.9/24')).toBe('203.0.113.9');
  });
});

describe('pod runner planning', () => {
  const mappings = [
    { from: '/etc/coredns', to: '/tmp/p/vol' },
    { from: '/etc/coredns/zones', to: '/tmp/p/zones' },
  ];

  it('rewrites whole mount paths only, longest first', () => {
    expect(rewritePaths('-conf /etc/coredns/Corefile', mappings)).toBe('-conf /tmp/p/vol/Corefile');
    expect(rewritePaths('--conf=/etc/coredns', mappings)).toBe('--conf=/tmp/p/vol');
    expect(rewritePaths('file /etc/coredns/zones/db.x', mappings)).toBe('file /tmp/p/zones/db.x');
    expect(rewritePaths('/etc/corednsx/y /opt/etc/coredns', mappings)).toBe(
      '/etc/corednsx/y /opt/etc/coredns',
    );
  });

  it('parses the Multus annotation in both forms', () => {
    expect(parseNetworksAnnotation('[{"name":"vlan","namespace":"ns","ips":["198.51.100.3/24"]}]')).toEqual([
      { name: 'vlan', namespace: 'ns', ips: ['198.51.100.3/24'] },
    ]);
    expect(parseNetworksAnnotation('ns/vlan@net2, other')).toEqual([
      { name: 'vlan', namespace: 'ns', ips: [], interface: 'net2' },
      { name: 'other', ips: [] },
    ]);
    expect(parseNetworksAnnotation(undefined)).toEqual([]);
  });

  it('expands $(VAR) as the kubelet does', () => {
    const env = new Map([['IP', '198.51.100.3']]);
    expect(expandVars('--addr=$(IP):53 $(NOPE) $$(IP)', env)).toBe('--addr=198.51.100.3:53 $(NOPE) $(IP)');
  });

  it('maps images to programs and keeps commands that run something else', () => {
    const [coredns, envoy, dhcp] = defaultImageMap();
    expect(coredns!.match('registry.k8s.io/coredns/coredns:v1.14.7')).toBe(true);
    expect(envoy!.match('docker.io/envoyproxy/envoy:v1.36.4')).toBe(true);
    expect(dhcp!.match('ghcr.io/x/oooi-dhcp:v1')).toBe(true);
    expect(dhcp!.match('ghcr.io/x/oooi-dhcpx:v1')).toBe(false);
    expect(containerArgv(coredns!, ['/c/coredns'], { command: ['/coredns'], args: ['-conf', 'x'] })).toEqual([
      '/c/coredns',
      '-conf',
      'x',
    ]);
    expect(containerArgv(envoy!, ['/e/envoy'], { args: ['-c', '/etc/envoy/envoy.yaml'] })).toEqual([
      '/e/envoy',
      '-c',
      '/etc/envoy/envoy.yaml',
      '--disable-hot-restart',
    ]);
    expect(containerArgv(envoy!, ['/e/envoy'], { command: ['sh', '-c', 'true'], args: [] })).toEqual([
      'sh',
      '-c',
      'true',
      '--disable-hot-restart',
    ]);
    expect(
      containerArgv(dhcp!, ['node', 'd.js'], { command: ['node', '/app/oooi-dhcp.js'], args: ['--x'] }),
    ).toEqual(['node', 'd.js', '--x']);
  });

  it('plans env, volumes and rejects what it cannot run', () => {
    const cm = { metadata: { name: 'cfg' }, data: { a: '1', b: '2' } };
    const d = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'c',
                image: 'coredns',
                env: [
                  { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
                  { name: 'A', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a' } } },
                ],
                volumeMounts: [{ name: 'v', mountPath: '/etc/x' }],
              },
            ],
            volumes: [{ name: 'v', configMap: { name: 'cfg', items: [{ key: 'b', path: 'sub/b.txt' }] } }],
          },
        },
      },
    };
    const plan = planPod(d, [cm], { podIP: '198.51.100.3', nodeName: 'n' });
    expect(plan.containers[0]!.env).toEqual([
      ['IP', '198.51.100.3'],
      ['A', '1'],
    ]);
    const v = plan.volumes[0]!;
    if (v.kind !== 'configMap') throw new Error('want a configMap volume');
    expect([...volumeFiles(v, cm).keys()]).toEqual(['sub/b.txt']);
    // a Secret volume: its files from the Secret given to runPod (base64 data), with its mode
    const secretVol = {
      ...d,
      spec: {
        template: {
          spec: {
            ...d.spec.template.spec,
            volumes: [{ name: 'v', secret: { secretName: 's', defaultMode: 0o440 } }],
          },
        },
      },
    };
    const sv = planPod(secretVol, [cm], { podIP: '', nodeName: '' }).volumes[0]!;
    if (sv.kind !== 'configMap') throw new Error('want a secret volume served like a configMap');
    const secret = secretSource({
      metadata: { name: 's' },
      data: { k: Buffer.from('x').toString('base64') },
    });
    expect([...volumeFiles(sv, secret)]).toEqual([['k', { data: Buffer.from('x'), mode: 0o440 }]]);
    const hostPathVol = {
      ...d,
      spec: { template: { spec: { ...d.spec.template.spec, volumes: [{ name: 'v', hostPath: {} }] } } },
    } as unknown as typeof secretVol;
    expect(() => planPod(hostPathVol, [cm], { podIP: '', nodeName: '' })).toThrow(
      /only configMap, secret, emptyDir and persistentVolumeClaim/,
    );
    const claimVol = {
      ...d,
      spec: {
        template: {
          spec: {
            ...d.spec.template.spec,
            volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'leases' } }],
          },
        },
      },
    };
    expect(planPod(claimVol, [cm], { podIP: '', nodeName: '' }).volumes).toEqual([
      { kind: 'persistentVolumeClaim', name: 'v', claimName: 'leases' },
    ]);
  });

  it('starts native sidecars first, with their startupProbe port resolved; refuses plain init containers', () => {
    const pod = (init: { name: string; image: string } & Record<string, unknown>) => ({
      metadata: { name: 'd' },
      spec: {
        template: {
          spec: { initContainers: [init], containers: [{ name: 'main', image: 'coredns' }] },
        },
      },
    });
    const sidecar = {
      name: 'sync',
      image: 'oooi-controller',
      restartPolicy: 'Always',
      ports: [{ name: 'sync-health', containerPort: 8090 }],
      startupProbe: { httpGet: { path: '/readyz', port: 'sync-health' } },
    };
    const plan = planPod(pod(sidecar), [], { podIP: '', nodeName: '' });
    expect(plan.containers.map((c) => [c.name, c.startupProbe])).toEqual([
      ['sync', { path: '/readyz', port: 8090 }],
      ['main', undefined],
    ]);
    expect(() => planPod(pod({ name: 'once', image: 'x' }), [], { podIP: '', nodeName: '' })).toThrow(
      /initContainers\[0\] \(once\): only native sidecars/,
    );
    expect(() => planPod(pod({ ...sidecar, ports: [] }), [], { podIP: '', nodeName: '' })).toThrow(
      /startupProbe.httpGet.port: no container port sync-health/,
    );
  });
});

describe('oooi entrypoints', () => {
  it('runs the bundle only when it is newer than every source file', () => {
    const root = mkdtempSync(join(tmpdir(), 'rig-entry-'));
    try {
      const src = join(root, 'packages', 'dhcp', 'src');
      const dist = join(root, 'packages', 'dhcp', 'dist', 'oooi-dhcp.js');
      mkdirSync(join(src, 'server'), { recursive: true });
      writeFileSync(join(src, 'main.ts'), '');
      writeFileSync(join(src, 'server', 'a.ts'), '');
      expect(oooiEntrypoint('dhcp', root).slice(-1)).toEqual([join(src, 'main.ts')]);
      mkdirSync(join(dist, '..'));
      writeFileSync(dist, '');
      expect(oooiEntrypoint('dhcp', root)).toEqual([process.execPath, dist]);
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(src, 'server', 'a.ts'), later, later);
      expect(oooiEntrypoint('dhcp', root)).toContain('--import');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('versions.env', () => {
  it('parses KEY=VALUE lines', () => {
    expect(parseEnvFile('# c\nA=1\n\nB="x y"\n')).toEqual(
      new Map([
        ['A', '1'],
        ['B', 'x y'],
      ]),
    );
  });
});
