// The `oooi` CLI end to end in-process: files in, files out, exit codes and messages.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../../testing/fixtures';
import { runCli } from './program';

const ex = (f: string) => join(repoRoot, 'examples', f);
const now = () => Date.parse('2030-01-02T03:04:05Z');

function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, now);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('oooi render', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oooi-render-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the examples: one file per child, the DNS outputs, status.yaml sorted', () => {
    const out = join(dir, 'out');
    const r = cli(
      'render',
      '-f',
      ex('infra.yaml'),
      '-f',
      ex('attachments.yaml'),
      '-o',
      out,
      '--now',
      '2030-01-01T00:00:00Z',
    );
    expect(r).toMatchObject({ code: 0, err: '' });
    const files = readdirSync(out).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'dhcpserver-clusters-vlan100-dhcp.yaml',
        'dnsserver-clusters-vlan100-dns.yaml',
        'proxyserver-clusters-vlan100-proxy.yaml',
        'status.yaml',
        'dns',
        'proxy',
      ]),
    );
    const proxyServer = parse(readFileSync(join(out, 'proxyserver-clusters-vlan100-proxy.yaml'), 'utf8')) as {
      spec: { backends: { port: number }[] };
    };
    const envoy = JSON.parse(readFileSync(join(out, 'proxy/clusters-vlan100-proxy/envoy.yaml'), 'utf8')) as {
      node: { id: string };
      admin: { address: { socketAddress: { address: string } } };
      staticResources: { listeners: { address: { socketAddress: { portValue: number } } }[] };
    };
    expect(envoy.node.id).toBe('clusters/vlan100-proxy');
    expect(envoy.admin.address.socketAddress.address).toBe('127.0.0.1');
    const ports = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
    expect(ports(envoy.staticResources.listeners.map((l) => l.address.socketAddress.portValue))).toEqual(
      ports(proxyServer.spec.backends.map((b) => b.port)),
    );
    const status = parse(readFileSync(join(out, 'status.yaml'), 'utf8')) as {
      kind: string;
      metadata: { name: string };
    }[];
    expect(status.map((s) => `${s.kind}/${s.metadata.name}`)).toEqual([
      'Infra/vlan100',
      'InfraClusterAttachment/alpha',
      'InfraClusterAttachment/bravo',
    ]);
    expect(readFileSync(join(out, 'status.yaml'), 'utf8')).toContain(
      'lastTransitionTime: 2030-01-01T00:00:00Z',
    );
  });

  test('the examples: exactly the files of every object the controllers would write, and the runnable ones', () => {
    const out = join(dir, 'out');
    const r = cli('render', '-f', ex('infra.yaml'), '-f', ex('attachments.yaml'), '-o', out);
    expect(r).toMatchObject({ code: 0, err: '', out: `rendered 32 files into ${out}` });
    const files = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(out.length + 1))
      .sort();
    expect(files).toEqual([
      'configmap-clusters-vlan100-dhcp-config.yaml',
      'configmap-clusters-vlan100-dns-config.yaml',
      'configmap-clusters-vlan100-proxy-config.yaml',
      'deployment-clusters-vlan100-dhcp.yaml',
      'deployment-clusters-vlan100-dns.yaml',
      'deployment-clusters-vlan100-proxy.yaml',
      'dhcp/clusters-vlan100-dhcp/config.json',
      'dhcpserver-clusters-vlan100-dhcp.yaml',
      'dns/clusters-vlan100-dns/Corefile',
      'dns/clusters-vlan100-dns/vlan.zone',
      'dnsserver-clusters-vlan100-dns.yaml',
      'networkpolicy-clusters-vlan100-dhcp.yaml',
      'networkpolicy-clusters-vlan100-dns.yaml',
      'networkpolicy-clusters-vlan100-proxy.yaml',
      'proxy/clusters-vlan100-proxy/envoy.yaml',
      'proxyserver-clusters-vlan100-proxy.yaml',
      'role-clusters-vlan100-dhcp-status.yaml',
      'role-clusters-vlan100-dns-config-sync.yaml',
      'role-clusters-vlan100-proxy-xds.yaml',
      'rolebinding-clusters-alpha-oooi-dhcp-vmi.clusters.vlan100-dhcp.yaml',
      'rolebinding-clusters-bravo-oooi-dhcp-vmi.clusters.vlan100-dhcp.yaml',
      'rolebinding-clusters-vlan100-dhcp-status.yaml',
      'rolebinding-clusters-vlan100-dns-config-sync.yaml',
      'rolebinding-clusters-vlan100-proxy-xds.yaml',
      'service-clusters-bravo-proxy-external.yaml',
      'service-clusters-vlan100-dhcp.yaml',
      'service-clusters-vlan100-dns.yaml',
      'service-clusters-vlan100-proxy.yaml',
      'serviceaccount-clusters-vlan100-dhcp.yaml',
      'serviceaccount-clusters-vlan100-dns.yaml',
      'serviceaccount-clusters-vlan100-proxy.yaml',
      'status.yaml',
    ]);
  });

  test("the proxy's Deployment runs the images of --proxy-image and --xds-image", () => {
    const out = join(dir, 'out');
    const r = cli(
      'render',
      '-f',
      ex('infra.yaml'),
      '-o',
      out,
      '--proxy-image',
      'registry.example/envoy:x',
      '--xds-image',
      'registry.example/xds:y',
    );
    expect(r).toMatchObject({ code: 0, err: '' });
    const deployment = parse(readFileSync(join(out, 'deployment-clusters-vlan100-proxy.yaml'), 'utf8')) as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    expect(deployment.spec.template.spec.containers.map((c) => c.image).sort()).toEqual([
      'registry.example/envoy:x',
      'registry.example/xds:y',
    ]);
  });

  test.each([
    {
      name: 'an invalid object: exit 1 naming file, object and field',
      args: ['-f', ex('broken/infra-gateway-outside-cidr.yaml')],
      code: 1,
      err: 'broken/infra-gateway-outside-cidr.yaml: Infra clusters/infra-gateway-outside-cidr: spec.networkConfig.gateway must lie inside spec.networkConfig.cidr',
    },
    {
      name: 'a missing file: exit 1',
      args: ['-f', 'no-such-file.yaml'],
      code: 1,
      err: 'no-such-file.yaml: cannot read',
    },
    {
      name: 'YAML that does not parse: exit 1 with the line',
      args: ['-f', 'BAD'],
      code: 1,
      err: 'BAD:1:7: document 1: Nested mappings are not allowed in compact mappings\n',
    },
    {
      name: 'a bad --now: exit 2',
      args: ['-f', ex('infra.yaml'), '--now', '2030-01-01'],
      code: 2,
      err: '--now',
    },
    {
      name: 'no -o: exit 2',
      args: ['-f', ex('infra.yaml')],
      code: 2,
      err: "required option '-o, --out <dir>'",
    },
  ])('$name', ({ args, code, err }) => {
    writeFileSync(join(dir, 'BAD'), 'kind: Infra\n  bad: [\n');
    const argv = args.map((a) => (a === 'BAD' ? join(dir, 'BAD') : a));
    const r = cli(
      'render',
      ...argv,
      ...(args.includes('2030-01-01') || code !== 2 ? ['-o', join(dir, 'out')] : []),
    );
    expect(r.code).toBe(code);
    expect(r.err).toContain(err);
    expect(readdirSync(dir).includes('out')).toBe(false);
  });

  test('a ProxyServer oooi-xds would refuse is refused, naming the object and the field (exit 1)', () => {
    const backend = (name: string) => ({
      name,
      hostname: 'api.alpha.example.com',
      port: 6443,
      targetService: '203.0.113.10',
      targetNamespace: 'alpha',
      targetPort: 6443,
    });
    const file = join(dir, 'proxy.yaml');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'hostedcluster.densityops.com/v1alpha1',
        kind: 'ProxyServer',
        metadata: { name: 'edge', namespace: 'lab' },
        spec: {
          networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.4' },
          backends: [backend('one'), backend('two')],
        },
      }),
    );
    const r = cli('render', '-f', file, '-o', join(dir, 'out'));
    expect(r.code).toBe(1);
    expect(r.err).toContain('ProxyServer lab/edge: spec.backends[');
    expect(r.err).toContain('api.alpha.example.com');
    expect(readdirSync(dir)).toEqual(['proxy.yaml']);
  });

  test('the NetworkPolicies: one per workload, with the metrics namespaces given; none with --no-network-policy', () => {
    const policies = (name: string, ...flags: string[]) => {
      const out = join(dir, name);
      const r = cli('render', '-f', ex('infra.yaml'), '-f', ex('attachments.yaml'), '-o', out, ...flags);
      expect(r).toMatchObject({ code: 0, err: '' });
      return readdirSync(out)
        .filter((f) => f.startsWith('networkpolicy-'))
        .sort()
        .map(
          (f) => parse(readFileSync(join(out, f), 'utf8')) as { metadata: { name: string }; spec: unknown },
        );
    };
    const on = policies('on', '--network-policy-metrics-namespaces', 'monitoring');
    expect(on.map((p) => p.metadata.name)).toEqual(['vlan100-dhcp', 'vlan100-dns', 'vlan100-proxy']);
    expect(JSON.stringify(on.map((p) => p.spec))).toContain('"values":["monitoring"]');
    expect(JSON.stringify(on.map((p) => p.spec))).not.toContain('openshift-monitoring');
    expect(policies('off', '--no-network-policy')).toEqual([]);
  });

  test('a metrics namespace that is no namespace name is a usage error (exit 2), nothing written', () => {
    const out = join(dir, 'out');
    const r = cli('render', '-f', ex('infra.yaml'), '-o', out, '--network-policy-metrics-namespaces', 'Mon');
    expect(r).toMatchObject({
      code: 2,
      err: '--network-policy-metrics-namespaces: not a namespace name: Mon',
    });
    expect(() => readdirSync(out)).toThrow();
  });

  test('every data-plane Deployment tolerates node loss for 15 s, or for --node-loss-toleration-seconds', () => {
    const seconds = (name: string, ...flags: string[]) => {
      const out = join(dir, name);
      const files = ['-f', ex('infra.yaml'), '-f', ex('attachments.yaml'), '-f', ex('dhcpserver.yaml')];
      expect(cli('render', ...files, '-o', out, ...flags)).toMatchObject({ code: 0, err: '' });
      return readdirSync(out)
        .filter((f) => f.startsWith('deployment-'))
        .sort()
        .map((f) => {
          const d = parse(readFileSync(join(out, f), 'utf8')) as {
            spec: { template: { spec: { tolerations: { key: string; tolerationSeconds: number }[] } } };
          };
          return `${f}: ${d.spec.template.spec.tolerations.map((t) => `${t.key}=${t.tolerationSeconds}`).join(' ')}`;
        });
    };
    const want = (n: number) =>
      ['lab-lab-dhcp', 'clusters-vlan100-dhcp', 'clusters-vlan100-dns', 'clusters-vlan100-proxy']
        .map(
          (d) =>
            `deployment-${d}.yaml: node.kubernetes.io/not-ready=${n} node.kubernetes.io/unreachable=${n}`,
        )
        .sort();
    expect(seconds('default')).toEqual(want(15));
    expect(seconds('forty', '--node-loss-toleration-seconds', '40')).toEqual(want(40));
  });

  test('a node-loss toleration that is no whole number of seconds up to an hour is a usage error (exit 2)', () => {
    const out = join(dir, 'out');
    const r = cli('render', '-f', ex('infra.yaml'), '-o', out, '--node-loss-toleration-seconds', '3601');
    expect(r).toMatchObject({
      code: 2,
      err: '--node-loss-toleration-seconds: not a whole number of seconds from 0 to 3600: 3601',
    });
    expect(() => readdirSync(out)).toThrow();
  });

  test('a non-empty output directory is refused (exit 2)', () => {
    writeFileSync(join(dir, 'x'), '');
    const r = cli('render', '-f', ex('infra.yaml'), '-o', dir);
    expect(r).toMatchObject({ code: 2 });
    expect(r.err).toContain('not empty');
  });
});

describe('oooi validate', () => {
  test.each([
    {
      name: 'the examples are valid',
      files: [ex('infra.yaml'), ex('attachments.yaml'), ex('dhcpserver.yaml')],
      code: 0,
      out: 'valid: 4 objects in 3 files',
    },
    {
      name: 'attachments alone: their Infra is missing',
      files: [ex('attachments.yaml')],
      code: 1,
      out: 'InfraNotFound: spec.infraRef.name of attachment "alpha"',
    },
    {
      name: 'a broken example',
      files: [ex('broken/infra-typo-field.yaml')],
      code: 1,
      out: 'unknown field "spec.networkConfig.gatway"',
    },
  ])('$name', ({ files, code, out }) => {
    const r = cli('validate', ...files.flatMap((f) => ['-f', f]));
    expect(r.code).toBe(code);
    expect(r.out).toContain(out);
  });
});

describe('oooi validate: two Infras on one VLAN', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oooi-validate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** An Infra on NAD clusters/vlan100 in a file of its own: serverIPs .N2, .N3, .N4 and the pool given. */
  function infraFile(name: string, n: number, pool: [number, number]): string {
    const file = join(dir, `${name}.yaml`);
    const ip = (last: number) => `198.51.100.${last}`;
    writeFileSync(
      file,
      [
        'apiVersion: hostedcluster.densityops.com/v1alpha1',
        'kind: Infra',
        `metadata: { name: ${name}, namespace: clusters }`,
        'spec:',
        `  networkConfig: { cidr: 198.51.100.0/24, gateway: ${ip(1)}, networkAttachmentDefinition: vlan100 }`,
        '  infraComponents:',
        `    dhcp: { serverIP: ${ip(n * 10 + 2)}, rangeStart: ${ip(pool[0])}, rangeEnd: ${ip(pool[1])} }`,
        `    dns: { serverIP: ${ip(n * 10 + 3)} }`,
        `    proxy: { serverIP: ${ip(n * 10 + 4)} }`,
        '',
      ].join('\n'),
    );
    return file;
  }

  test('overlapping DHCP pools: exit 1, each Infra named with the other, the fields and the addresses', () => {
    const a = infraFile('vlan100', 0, [100, 199]);
    const b = infraFile('vlan200', 1, [150, 250]);
    const r = cli('validate', '-f', a, '-f', b);
    expect(r.code).toBe(1);
    const pool = 'spec.infraComponents.dhcp.rangeStart-rangeEnd';
    expect(r.out).toContain(
      `${a}: Infra clusters/vlan100: InfraAddressConflict: DHCP pool 198.51.100.100-198.51.100.199 (${pool}) overlaps DHCP pool 198.51.100.150-198.51.100.250 (${pool}) of Infra clusters/vlan200 (same NetworkAttachmentDefinition clusters/vlan100)`,
    );
    expect(r.out).toContain(
      `${b}: Infra clusters/vlan200: InfraAddressConflict: DHCP pool 198.51.100.150-198.51.100.250 (${pool}) overlaps DHCP pool 198.51.100.100-198.51.100.199 (${pool}) of Infra clusters/vlan100 (same NetworkAttachmentDefinition clusters/vlan100)`,
    );
  });

  test('adjacent pools and distinct addresses on one NAD: valid', () => {
    const r = cli(
      'validate',
      '-f',
      infraFile('vlan100', 0, [100, 149]),
      '-f',
      infraFile('vlan200', 1, [150, 199]),
    );
    expect(r).toMatchObject({ code: 0, out: 'valid: 2 objects in 2 files' });
  });
});
