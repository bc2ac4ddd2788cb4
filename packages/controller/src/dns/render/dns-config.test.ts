import type { DNSServer } from '@oooi/api';
import { expectGoldenDir } from '@oooi/api/testing';
import { exampleDnsServer } from '../testing/fixtures';
import { renderDnsConfig } from './dns-config';
import { vlanViewExpression } from './corefile';

interface GoldenCase {
  name: string;
  input: DNSServer;
  /** A directory of testdata/ holding exactly the rendered files (runnable: `coredns -conf Corefile` in it). */
  golden: string;
}

/** The files as one text (for equality checks): `==> name <==` headers, like `tail` on several files. */
function joined(files: Readonly<Record<string, string>>): string {
  return Object.entries(files)
    .map(([name, text]) => `==> ${name} <==\n${text}`)
    .join('\n');
}

function render(input: DNSServer): Readonly<Record<string, string>> {
  const r = renderDnsConfig(input);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value.files;
}

/** INPUT with every record list reversed and rotated, and the upstream list unchanged (its order matters). */
function shuffled(input: DNSServer): DNSServer {
  const mix = <T>(xs: readonly T[] | undefined): T[] => {
    const r = [...(xs ?? [])].reverse();
    return [...r.slice(3), ...r.slice(0, 3)];
  };
  const views = input.spec.views ?? {};
  return {
    ...input,
    spec: {
      ...input.spec,
      views: {
        vlan: { records: mix(views.vlan?.records) },
        podNetwork: { records: mix(views.podNetwork?.records) },
      },
    },
  };
}

const twoViews = exampleDnsServer();
const goldenCases: GoldenCase[] = [
  { name: 'two clusters, both views, resolv.conf', input: twoViews, golden: 'two-views' },
  {
    name: 'no attachments keeps forwarding (mixed upstreams, repeats dropped)',
    input: exampleDnsServer({ clusters: [], upstreams: ['10.0.0.10', 'resolv.conf', '10.0.0.10'] }),
    golden: 'no-attachments',
  },
  {
    name: 'no internalProxyService: the pod-network view only forwards',
    input: exampleDnsServer({ clusters: ['alpha'], podView: false }),
    golden: 'vlan-only',
  },
  {
    name: 'no upstream: records only, a clear SERVFAIL for the rest',
    input: exampleDnsServer({ clusters: ['alpha'], upstreams: [] }),
    golden: 'no-upstream',
  },
  {
    name: 'custom port, cache and reload interval',
    input: exampleDnsServer({
      clusters: ['bravo'],
      spec: {
        networkConfig: { cidr: '198.51.100.128/25', serverIP: '198.51.100.130', dnsPort: 5353 },
        cacheTTL: '1m',
        reloadInterval: '10s',
      },
    }),
    golden: 'custom-timers',
  },
];

describe('renderDnsConfig', () => {
  test.each(goldenCases)('$name', ({ input, golden }) => {
    expectGoldenDir(__dirname, golden, render(input));
  });

  test('the same records in another order render byte-equal files', () => {
    expect(joined(render(shuffled(twoViews)))).toBe(joined(render(twoViews)));
  });

  test('the VLAN view block comes first and the catch-all last, with identical bind lists', () => {
    const corefile = render(twoViews).Corefile ?? '';
    const blocks = corefile.split(/^\.:53 \{$/m).slice(1);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain("expr client_ip() startsWith '198.51.100.'");
    expect(blocks[1]).not.toContain('view ');
    expect(corefile).not.toMatch(/^\s*bind /m);
  });

  test.each([
    { cidr: '198.51.100.0/24', want: "client_ip() startsWith '198.51.100.'" },
    { cidr: '10.0.0.0/8', want: "client_ip() startsWith '10.'" },
    { cidr: '172.16.0.0/16', want: "client_ip() startsWith '172.16.'" },
    {
      cidr: '198.51.100.0/23',
      want: "client_ip() startsWith '198.51.' && incidr(client_ip(), '198.51.100.0/23')",
    },
    {
      cidr: '198.51.100.64/26',
      want: "client_ip() startsWith '198.51.100.' && incidr(client_ip(), '198.51.100.64/26')",
    },
  ])(
    'the VLAN view of $cidr: a string prefix on octet boundaries, incidr behind it otherwise',
    ({ cidr, want }) => {
      expect(vlanViewExpression(cidr)).toBe(want);
    },
  );

  test('a record change changes the Corefile (nsid), so the reload plugin picks it up', () => {
    const changed = exampleDnsServer({ clusters: ['alpha'] });
    const a = render(twoViews);
    const b = render(changed);
    expect(b.Corefile).not.toBe(a.Corefile);
    expect(Object.keys(b)).toEqual(Object.keys(a));
  });

  test('the serial is a pure function of the records, and in the SOA and the nsid', () => {
    const r = renderDnsConfig(twoViews);
    if (!r.ok) throw new Error('render failed');
    const { serials, files, recordCount } = r.value;
    expect(recordCount).toBe(2 * 16);
    expect(files['vlan.zone']).toContain(`hostmaster.oooi.invalid. ${serials.vlan} `);
    expect(files.Corefile).toContain(`nsid oooi clusters/vlan100-dns vlan ${serials.vlan}`);
    expect(files.Corefile).toContain(`nsid oooi clusters/vlan100-dns pod-network ${serials['pod-network']}`);
    expect(serials.vlan).not.toBe(serials['pod-network']);
  });

  interface ErrorCase {
    name: string;
    input: DNSServer;
    wantErrors: string[];
  }
  const base = exampleDnsServer({ clusters: ['alpha'] });
  const errorCases: ErrorCase[] = [
    {
      name: 'reload interval under the plugin minimum',
      input: exampleDnsServer({ spec: { reloadInterval: '1s' } }),
      wantErrors: ['spec.reloadInterval: "1s" must be a duration of at least 2s'],
    },
    {
      name: 'zero cache TTL',
      input: exampleDnsServer({ spec: { cacheTTL: '0s' } }),
      wantErrors: ['spec.cacheTTL: "0s" must be a duration of at least 1s'],
    },
    {
      name: 'bad records and upstreams, all reported',
      input: {
        ...base,
        spec: {
          ...base.spec,
          views: {
            vlan: {
              records: [
                { name: 'api.c.example.com', ip: '198.51.100.4' },
                { name: 'API.c.example.com', ip: '198.51.100.4' },
                { name: 'api.c.example.com', ip: '198.51.100.5' },
                { name: 'x.*.example.com', ip: '198.51.100.999' },
              ],
            },
          },
          upstreams: ['8.8.8.8:53'],
        },
      },
      wantErrors: [
        'spec.upstreams[0]: "8.8.8.8:53" is neither an IPv4 address nor the literal "resolv.conf"',
        'spec.views.vlan.records[1].name: "API.c.example.com" is not a lower-case host name',
        'spec.views.vlan.records[2].name: duplicate of spec.views.vlan.records[0] (api.c.example.com)',
        'spec.views.vlan.records[3].ip: "198.51.100.999" is not an IPv4 address',
        'spec.views.vlan.records[3].name: "x.*.example.com" is not a lower-case host name',
      ],
    },
    {
      name: 'not a CIDR',
      input: exampleDnsServer({
        spec: { networkConfig: { cidr: '198.51.100.0', serverIP: '198.51.100.3' } },
      }),
      wantErrors: ['spec.networkConfig.cidr: "198.51.100.0" is not an IPv4 CIDR'],
    },
  ];
  test.each(errorCases)('rejects: $name', ({ input, wantErrors }) => {
    const r = renderDnsConfig(input);
    expect(r.ok).toBe(false);
    const got = r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    expect(got).toHaveLength(wantErrors.length);
    wantErrors.forEach((want, i) => expect(got[i]).toContain(want));
  });
});
