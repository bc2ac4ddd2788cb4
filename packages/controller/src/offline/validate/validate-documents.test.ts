import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { dns as dnsServer, proxy as proxyServer, set } from '@oooi/api/testing';
import { attachment, grant, infra, loadYaml, machine, nodePool, repoRoot } from '../../testing/fixtures';
import type { SourceDocument } from '../render/input';
import { validateDocuments } from './validate-documents';

const docs = (file: string, values: readonly unknown[]): SourceDocument[] =>
  values.map((value, i) => ({ file, index: i + 1, value }));

/** The tenant namespace's own Infra, on a VLAN of its own (another CIDR: nothing shared with clusters/vlan100). */
const tenantInfra = infra({
  networkConfig: { cidr: '203.0.113.0/24', gateway: '203.0.113.1' },
  infraComponents: {
    dhcp: { serverIP: '203.0.113.2', rangeStart: '203.0.113.100', rangeEnd: '203.0.113.199' },
    dns: { serverIP: '203.0.113.3' },
    proxy: { serverIP: '203.0.113.4' },
  },
});

describe('validateDocuments', () => {
  test('the examples are valid', () => {
    expect(
      validateDocuments([
        ...docs('examples/infra.yaml', loadYaml('examples/infra.yaml')),
        ...docs('examples/attachments.yaml', loadYaml('examples/attachments.yaml')),
        ...docs('examples/dhcpserver.yaml', loadYaml('examples/dhcpserver.yaml')),
      ]),
    ).toEqual([]);
  });

  const expected = parse(readFileSync(join(repoRoot, 'examples/broken/expected.yaml'), 'utf8')) as Record<
    string,
    { path: string; message: string }[]
  >;
  test.each(readdirSync(join(repoRoot, 'examples/broken')).filter((f) => f !== 'expected.yaml'))(
    'broken example %s: its admission errors, naming file, object and field',
    (file) => {
      const path = `examples/broken/${file}`;
      const lines = validateDocuments(docs(path, loadYaml(path)));
      for (const e of expected[file] ?? []) {
        expect(
          lines.some((l) => l.startsWith(`${path}: `) && l.includes(e.path) && l.includes(e.message)),
        ).toBe(true);
      }
      expect(lines.length).toBeGreaterThan(0);
    },
  );

  test.each([
    {
      name: 'duplicate domain, naming both attachments and fields',
      input: docs('a.yaml', [infra(), attachment('alpha'), attachment('bravo', { clusterName: 'alpha' })]),
      want: [
        'a.yaml: InfraClusterAttachment clusters/alpha: spec.dns: DuplicateHostname: attachments "alpha" and "bravo" declare domain "alpha.example.com" (with InfraClusterAttachment clusters/bravo spec.dns in a.yaml)',
      ],
    },
    {
      name: "another namespace's attachment naming alpha's HostedCluster, no grant in the files: refused, no conflict",
      input: docs('a.yaml', [
        infra(),
        attachment('alpha'),
        { ...tenantInfra, metadata: { name: 'vlan100', namespace: 'tenant' } },
        { ...attachment('intruder', { hc: 'alpha' }), metadata: { name: 'intruder', namespace: 'tenant' } },
      ]),
      want: [
        'a.yaml: InfraClusterAttachment tenant/intruder: spec.hostedClusterRef: ReferenceNotPermitted: attachment "tenant/intruder" names HostedCluster clusters/alpha of another namespace, and no HostedClusterGrant in namespace "clusters" lets attachments of namespace "tenant" name it: the attachment is left out of routing, DNS, conflicts and apps ingress',
      ],
    },
    {
      name: 'the same with a grant in the files: one HostedCluster attached to two Infras',
      input: docs('a.yaml', [
        infra(),
        attachment('alpha'),
        { ...tenantInfra, metadata: { name: 'vlan100', namespace: 'tenant' } },
        { ...attachment('intruder', { hc: 'alpha' }), metadata: { name: 'intruder', namespace: 'tenant' } },
        grant('clusters', ['tenant']),
      ]),
      want: [
        'a.yaml: InfraClusterAttachment clusters/alpha: spec.hostedClusterRef: DuplicateHostedCluster: attachments "clusters/alpha" (Infra "vlan100") and "tenant/intruder" (Infra "vlan100") reference HostedCluster clusters/alpha (with InfraClusterAttachment tenant/intruder spec.hostedClusterRef in a.yaml)',
      ],
    },
    {
      name: 'an attachment without its Infra',
      input: docs('a.yaml', [attachment('alpha')]),
      want: [
        'a.yaml: InfraClusterAttachment clusters/alpha: spec.infraRef.name: InfraNotFound: spec.infraRef.name of attachment "alpha": Infra "vlan100" not found in namespace "clusters"',
      ],
    },
    {
      name: 'a shared source address (NodePools and Machines given)',
      input: docs('a.yaml', [
        infra(),
        attachment('a'),
        attachment('b'),
        nodePool('a-np', 'a'),
        nodePool('b-np', 'b'),
        machine('m1', 'clusters-a', 'clusters/a-np', ['198.51.100.50']),
        machine('m2', 'clusters-b', 'clusters/b-np', ['198.51.100.50']),
      ]),
      want: [
        'a.yaml: Infra clusters/vlan100: DuplicateSourceIP: attachments "a", "b" share source CIDR "198.51.100.50/32": the kubernetes alias routes for that address were removed, the other routes remain',
      ],
    },
    {
      name: 'an enabled component without its serverIP',
      input: docs('i.yaml', [infra({ infraComponents: { proxy: { serverIP: undefined } } })]),
      want: [
        'i.yaml: Infra clusters/vlan100: ProxyServerIPMissing: spec.infraComponents.proxy.serverIP is empty: the enabled proxy component is not created without it',
      ],
    },
    {
      name: 'two Infras on one NAD with overlapping DHCP pools: each names the other, the fields and the addresses',
      input: [
        ...docs('a.yaml', [infra()]),
        ...docs('b.yaml', [
          infra(
            {
              infraComponents: {
                dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.150', rangeEnd: '198.51.100.250' },
                dns: { serverIP: '198.51.100.13' },
                proxy: { serverIP: '198.51.100.14' },
              },
            },
            'vlan200',
          ),
        ]),
      ],
      want: [
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: DHCPServer vlan100-dhcp is not applied while its address collides with Infra clusters/vlan200: an existing one is left as it is',
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: DHCP pool 198.51.100.100-198.51.100.199 (spec.infraComponents.dhcp.rangeStart-rangeEnd) overlaps DHCP pool 198.51.100.150-198.51.100.250 (spec.infraComponents.dhcp.rangeStart-rangeEnd) of Infra clusters/vlan200 (same NetworkAttachmentDefinition clusters/vlan100)',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: DHCPServer vlan200-dhcp is not applied while its address collides with Infra clusters/vlan100: an existing one is left as it is',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: DHCP pool 198.51.100.150-198.51.100.250 (spec.infraComponents.dhcp.rangeStart-rangeEnd) overlaps DHCP pool 198.51.100.100-198.51.100.199 (spec.infraComponents.dhcp.rangeStart-rangeEnd) of Infra clusters/vlan100 (same NetworkAttachmentDefinition clusters/vlan100)',
      ],
    },
    {
      name: "HA mode: an additional DNS address on the other Infra's proxy collides (DNS and proxy withheld)",
      input: [
        ...docs('a.yaml', [infra()]),
        ...docs('b.yaml', [
          infra(
            {
              infraComponents: {
                dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' },
                dns: { serverIP: '198.51.100.13', additionalServerIPs: ['198.51.100.4'] },
                proxy: { serverIP: '198.51.100.14' },
              },
            },
            'vlan200',
          ),
        ]),
      ],
      want: [
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: ProxyServer vlan100-proxy is not applied while its address collides with Infra clusters/vlan200: an existing one is left as it is',
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: spec.infraComponents.proxy.serverIP 198.51.100.4 is also spec.infraComponents.dns.additionalServerIPs[0] 198.51.100.4 of Infra clusters/vlan200 (same NetworkAttachmentDefinition clusters/vlan100)',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: DNSServer vlan200-dns is not applied while its address collides with Infra clusters/vlan100: an existing one is left as it is',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: spec.infraComponents.dns.additionalServerIPs[0] 198.51.100.4 is also spec.infraComponents.proxy.serverIP 198.51.100.4 of Infra clusters/vlan100 (same NetworkAttachmentDefinition clusters/vlan100)',
      ],
    },
    {
      name: "the DHCP pair: a standby address on the other Infra's DNS server collides (DHCP and DNS withheld)",
      input: [
        ...docs('a.yaml', [infra()]),
        ...docs('b.yaml', [
          infra(
            {
              infraComponents: {
                dhcp: {
                  serverIP: '198.51.100.12',
                  standbyServerIP: '198.51.100.3',
                  rangeStart: '198.51.100.20',
                  rangeEnd: '198.51.100.99',
                },
                dns: { serverIP: '198.51.100.13' },
                proxy: { serverIP: '198.51.100.14' },
              },
            },
            'vlan200',
          ),
        ]),
      ],
      want: [
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: DNSServer vlan100-dns is not applied while its address collides with Infra clusters/vlan200: an existing one is left as it is',
        'a.yaml: Infra clusters/vlan100: InfraAddressConflict: spec.infraComponents.dns.serverIP 198.51.100.3 is also spec.infraComponents.dhcp.standbyServerIP 198.51.100.3 of Infra clusters/vlan200 (same NetworkAttachmentDefinition clusters/vlan100)',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: DHCPServer vlan200-dhcp is not applied while its address collides with Infra clusters/vlan100: an existing one is left as it is',
        'b.yaml: Infra clusters/vlan200: InfraAddressConflict: spec.infraComponents.dhcp.standbyServerIP 198.51.100.3 is also spec.infraComponents.dns.serverIP 198.51.100.3 of Infra clusters/vlan100 (same NetworkAttachmentDefinition clusters/vlan100)',
      ],
    },
    {
      name: 'a record name and a backend name twice: admitted (atomic lists), refused by the DNSServer reconciler and oooi-xds',
      input: docs('c.yaml', [
        set(dnsServer, 'spec.views.vlan.records', [
          { name: 'a.b.c', ip: '198.51.100.4' },
          { name: 'a.b.c', ip: '198.51.100.5' },
        ]),
        set(proxyServer, 'spec.backends', [
          proxyServer.spec.backends[0],
          { ...proxyServer.spec.backends[0], hostname: 'api2.c.example.com', port: 8443 },
        ]),
      ]),
      want: [
        'c.yaml: DNSServer lab/d: spec.views.vlan.records[1].name: duplicate of spec.views.vlan.records[0] (a.b.c)',
        'c.yaml: ProxyServer lab/p: spec.backends[1].name: duplicate backend name api: spec.backends[1] (api) and spec.backends[0] (api)',
      ],
    },
    {
      name: 'an unknown kind and a duplicate object',
      input: [
        ...docs('x.yaml', [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, infra()]),
        ...docs('y.yaml', [infra()]),
      ],
      want: [
        'x.yaml: document 1: kind: Unsupported value: "ConfigMap": oooi reads Infra, InfraClusterAttachment, HostedClusterGrant, DHCPServer, DNSServer, ProxyServer, HostedCluster, NodePool, Machine, Service',
        'y.yaml: document 1: Infra clusters/vlan100: metadata.name: Duplicate value: already in x.yaml: document 2',
      ],
    },
  ])('$name', ({ input, want }) => {
    expect(validateDocuments(input)).toEqual(want);
  });
});
