// Injection: every string field of every input object, in turn, carries a payload that would end a line or a
// block (newline, brace, directive, record, quote). Whatever happens — refused with the field named, or rendered —
// the generated Corefiles and zone files parse back to exactly the baseline's directives and records, and every
// config.json parses back to the baseline's shape and passes oooi-dhcp's validator: no payload adds a directive,
// a block, a record, a token or a JSON key, and no payload word appears in any generated file or file name.
import type { SourceDocument } from './input';
import { readRenderInput } from './input';
import { validateDhcpConfig } from '@oooi/api';
import { DEFAULT_NETWORK_POLICY } from '../../workload/network-policy';
import { renderDhcpOutputs } from './render-dhcp';
import { renderDnsOutputs } from './render-dns';
import { renderFiles, renderInfras } from './render-infras';
import { builtinImages } from '../../workload/images';
import { attachment, infra, machine, nodePool, service } from '../../testing/fixtures';
import { corefileShape, corefileTokens, parseZone } from '../../testing/parse-dns-files';

const now = Date.parse('2030-01-02T03:04:05Z');

const PAYLOADS = [
  (v: string) => `${v}\n}\nimport /etc/passwd\n. {\n  whoami`,
  (v: string) => `${v}\nevil.example.com. IN A 203.0.113.66\n;`,
  (v: string) => `${v} { import /etc/passwd }`,
  (v: string) => `${v}\r$INCLUDE /etc/passwd`,
  (v: string) => `${v}"whoami"`,
  (v: string) => `${v}\u2028evil`,
  (v: string) => `${v};evil`,
];
const MARKERS = ['passwd', 'whoami', 'evil', 'INCLUDE'];

function baseObjects(): unknown[] {
  return [
    infra(),
    attachment('alpha', { apps: { phase: 'Ready', ip: '198.51.100.201' } }),
    attachment('bravo', {
      apps: { range: '198.51.100.210-198.51.100.219', phase: 'Ready', hostname: 'lb.example.net' },
    }),
    service('vlan100-proxy', 'clusters', '172.30.0.10'),
    nodePool('alpha-workers', 'alpha'),
    machine('alpha-1', 'clusters-alpha', 'clusters/alpha-workers', ['198.51.100.120', '10.128.0.5']),
    {
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'DNSServer',
      metadata: { name: 'lab-dns', namespace: 'lab' },
      spec: {
        networkConfig: {
          cidr: '198.51.100.0/24',
          serverIP: '198.51.100.53',
          networkAttachmentName: 'vlan100',
        },
        upstreams: ['198.51.100.1'],
        views: { vlan: { records: [{ name: 'x.lab.example.com', ip: '198.51.100.9' }] } },
      },
    },
    {
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'DHCPServer',
      metadata: { name: 'lab-dhcp', namespace: 'lab' },
      spec: {
        networkConfig: {
          cidr: '198.51.100.0/24',
          gateway: '198.51.100.1',
          serverIP: '198.51.100.2',
          networkAttachmentName: 'lab-vlan',
          networkAttachmentNamespace: 'nets',
          dnsServers: ['198.51.100.3'],
        },
        leaseConfig: {
          rangeStart: '198.51.100.20',
          rangeEnd: '198.51.100.90',
          leaseTime: '2h',
          excluded: ['198.51.100.30-198.51.100.39'],
        },
        options: {
          domainName: 'lab.example.com',
          searchList: ['lab.example.com'],
          classlessRoutes: [{ destination: '203.0.113.0/24', router: '198.51.100.1' }],
          ntpServers: ['198.51.100.3'],
        },
        kubevirt: {
          namespaces: ['lab-vms'],
          networkName: 'nets/lab-vlan',
          unknownClients: 'refuse',
          releaseGrace: '1m',
        },
        leaseStorage: { storageClassName: 'standard', size: '64Mi' },
        image: 'registry.example.com/oooi-dhcp:0.1.0',
      },
    },
  ];
}

/** Paths (`[object, key, key…]`) of every string leaf, metadata.namespace added where it is absent. */
function stringPaths(objects: readonly unknown[]): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (typeof v === 'string') out.push(path);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  objects.forEach((o, i) => {
    walk(o, [i]);
    if (!(o as { metadata: { namespace?: string } }).metadata.namespace)
      out.push([i, 'metadata', 'namespace']);
  });
  return out;
}

function withValue(
  objects: readonly unknown[],
  path: (string | number)[],
  f: (v: string) => string,
): unknown[] {
  const copy = structuredClone(objects) as unknown[];
  let at: Record<string | number, unknown> = copy as unknown as Record<number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  at[last] = f(typeof at[last] === 'string' ? at[last] : 'default');
  return copy;
}

type Outcome = { refused: string[] } | { files: Record<string, string> };

function render(objects: readonly unknown[]): Outcome {
  const docs: SourceDocument[] = objects.map((value, i) => ({ file: 'in.yaml', index: i + 1, value }));
  const read = readRenderInput(docs);
  if (!read.ok) return { refused: [...read.errors] };
  const result = renderInfras(read.input, { now, images: builtinImages });
  const main = renderFiles(result);
  const dns = renderDnsOutputs(result.dnsServers, builtinImages.dns, DEFAULT_NETWORK_POLICY);
  const dhcp = renderDhcpOutputs(result.dhcpServers, builtinImages.dhcpServer, DEFAULT_NETWORK_POLICY);
  const refused = [...main.errors, ...dns.errors, ...dhcp.errors];
  if (refused.length > 0) return { refused };
  return {
    files: Object.fromEntries([...main.files, ...dns.files, ...dhcp.files].map((f) => [f.name, f.content])),
  };
}

function dnsFiles(files: Record<string, string>): { corefiles: string[]; zones: string[] } {
  const names = Object.keys(files).sort();
  return {
    corefiles: names.filter((n) => n.endsWith('/Corefile')).map((n) => files[n]!),
    zones: names.filter((n) => n.endsWith('.zone')).map((n) => files[n]!),
  };
}

describe('no string from a CR can add anything to a Corefile or zone file', () => {
  const base = render(baseObjects());
  if (!('files' in base)) throw new Error(`baseline refused: ${base.refused.join('\n')}`);
  const baseline = dnsFiles(base.files);
  const baselineRecords = baseline.zones.flatMap((z) =>
    parseZone(z).records.map((r) => `${r.name} ${r.value}`),
  );
  const cases = stringPaths(baseObjects()).flatMap((path) =>
    PAYLOADS.map((payload, p) => ({ path, p, payload, label: `${path.join('.')} #${p}` })),
  );

  test('the baseline has both views, records and forwarding to check against', () => {
    expect(baseline.corefiles).toHaveLength(2);
    expect(baseline.zones.length).toBeGreaterThanOrEqual(3);
    expect(cases.length).toBeGreaterThan(300);
  });

  test.each(cases)('$label', ({ path, payload }) => {
    const outcome = render(withValue(baseObjects(), path, payload));
    if ('refused' in outcome) {
      // Refused, with the field named (the object's own path, or the file name built from it).
      const field = path[path.length - 1] === 'apiVersion' ? 'kind' : String(path[path.length - 1]);
      expect(outcome.refused.some((e) => e.includes(field) || e.includes('cannot write'))).toBe(true);
      return;
    }
    const got = dnsFiles(outcome.files);
    // A view may lose its zone (every record of it refused): then its `file` block goes, nothing else changes.
    const withoutZones = (shape: string[]) =>
      shape.filter((l, i) => !(l === '1 file' || shape[i - 1] === '1 file' || shape[i - 2] === '1 file'));
    expect(got.corefiles.map(corefileShape).map(withoutZones)).toEqual(
      baseline.corefiles.map(corefileShape).map(withoutZones),
    );
    for (const text of got.corefiles) {
      expect(corefileTokens(text).filter((t) => /["'`{}]/.test(t) && t !== '{' && t !== '}')).toEqual(
        corefileTokens(baseline.corefiles[0]!).filter((t) => /["'`{}]/.test(t) && t !== '{' && t !== '}'),
      );
    }
    const zones = got.zones.map(parseZone);
    for (const z of zones) expect(z.directives).toEqual(['$ORIGIN .', '$TTL 30']);
    // A payload may cost a record (an address that does not parse gets none), never add or change one.
    const known = new Set(baselineRecords);
    expect(
      zones.flatMap((z) => z.records.map((r) => `${r.name} ${r.value}`)).filter((r) => !known.has(r)),
    ).toEqual([]);
    expect(zones.flatMap((z) => z.other)).toEqual([]);
    for (const text of [...got.corefiles, ...got.zones])
      for (const m of MARKERS) expect(text).not.toContain(m);
  });
});

/** The shape of a JSON value: its keys and the kinds of its leaves, not their text. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return typeof v;
}

const configFiles = (files: Record<string, string>) =>
  Object.keys(files)
    .filter((n) => n.startsWith('dhcp/'))
    .sort()
    .map((n) => [n, files[n]!] as const);

describe('no string from a CR can add anything to a config.json or a file name', () => {
  const base = render(baseObjects());
  if (!('files' in base)) throw new Error(`baseline refused: ${base.refused.join('\n')}`);
  const baseline = configFiles(base.files);
  const cases = stringPaths(baseObjects()).flatMap((path) =>
    PAYLOADS.map((payload, p) => ({ path, payload, label: `${path.join('.')} #${p}` })),
  );

  test('the baseline has both DHCP servers (the Infra child and the standalone one)', () => {
    expect(baseline.map(([n]) => n)).toEqual([
      'dhcp/clusters-vlan100-dhcp/config.json',
      'dhcp/lab-lab-dhcp/config.json',
    ]);
  });

  test.each(cases)('$label', ({ path, payload }) => {
    const outcome = render(withValue(baseObjects(), path, payload));
    if ('refused' in outcome) {
      const field = path[path.length - 1] === 'apiVersion' ? 'kind' : String(path[path.length - 1]);
      expect(outcome.refused.some((e) => e.includes(field) || e.includes('cannot write'))).toBe(true);
      return;
    }
    const got = configFiles(outcome.files);
    expect(got.map(([n]) => n)).toEqual(baseline.map(([n]) => n));
    got.forEach(([, text], i) => {
      const json: unknown = JSON.parse(text);
      expect(validateDhcpConfig(json)).toMatchObject({ ok: true });
      expect(shape(json)).toEqual(shape(JSON.parse(baseline[i]![1])));
    });
    for (const [name, text] of Object.entries(outcome.files))
      for (const m of MARKERS) expect(`${name}\n${name.startsWith('dhcp/') ? text : ''}`).not.toContain(m);
  });
});
