// config.json: golden files per shape of DHCPServer, byte-stable under reordering, always accepted by oooi-dhcp's
// own validator, and every problem reported with the DHCPServer field it comes from.
import { validateDhcpConfig, type DHCPServer } from '@oooi/api';
import { expectGolden } from '@oooi/api/testing';
import { exampleDhcpServer, infraChildDhcpServer } from '../testing/fixtures';
import { renderDhcpConfig } from './dhcp-config';

function text(input: DHCPServer): string {
  const r = renderDhcpConfig(input);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.value.text;
}

/** A deep copy whose object keys are in reverse order (arrays keep their order: it means something there). */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  ) as T;
}

const cases = [
  {
    name: 'the standalone example: every option, KubeVirt, excluded range',
    input: exampleDhcpServer(),
    golden: 'standalone.json',
  },
  {
    name: 'the Infra child of the examples: statics and MetalLB excluded, two VMI namespaces',
    input: infraChildDhcpServer(),
    golden: 'infra-child.json',
  },
  {
    name: 'network and pool only: no options, no KubeVirt block, default lease time',
    input: exampleDhcpServer({
      options: undefined,
      kubevirt: undefined,
      leaseStorage: undefined,
      leaseConfig: { rangeStart: '198.51.100.20', rangeEnd: '198.51.100.120' },
    }),
    golden: 'minimal.json',
  },
  {
    name: 'refusing unknown clients, a bare network name, a namespace listed twice, no grace',
    input: exampleDhcpServer({
      kubevirt: {
        namespaces: ['lab-vms', 'lab', 'lab-vms'],
        networkName: 'lab-vlan',
        unknownClients: 'refuse',
        releaseGrace: '0s',
      },
    }),
    golden: 'refuse.json',
  },
];

describe('renderDhcpConfig', () => {
  test.each(cases)('$name', ({ input, golden: g }) => expectGolden(__dirname, g, text(input)));

  test.each(cases)('$name: byte-equal from reordered input, accepted by validateDhcpConfig', ({ input }) => {
    const out = text(input);
    expect(text(reversedKeys(input))).toBe(out);
    expect(validateDhcpConfig(JSON.parse(out))).toMatchObject({ ok: true });
  });

  test.each([
    {
      name: 'a KubeVirt block without namespaces reads no VMI',
      kubevirt: { unknownClients: 'serve' as const },
      want: undefined,
    },
    {
      name: 'the network name defaults to the NAD the pod attaches to',
      kubevirt: { namespaces: ['vms'] },
      want: {
        namespaces: ['vms'],
        networkName: 'lab/lab-vlan',
        unknownClients: 'serve',
        releaseGraceSeconds: 300,
      },
    },
  ])('$name', ({ kubevirt, want }) => {
    const r = renderDhcpConfig(exampleDhcpServer({ kubevirt }));
    if (!r.ok) throw new Error('not rendered');
    expect(r.value.config.kubevirt).toEqual(want);
  });

  test('the status target is the DHCPServer itself; pool size counts the pool minus excluded', () => {
    const r = renderDhcpConfig(exampleDhcpServer());
    if (!r.ok) throw new Error('not rendered');
    expect(r.value.config.status).toEqual({ namespace: 'lab', name: 'lab-dhcp' });
    expect(r.value.poolSize).toBe(101 - 10);
  });

  test.each([
    {
      name: 'the gateway outside the network (never admitted; offline input)',
      input: exampleDhcpServer({
        networkConfig: {
          cidr: '198.51.100.0/25',
          gateway: '198.51.100.200',
          serverIP: '198.51.100.2',
          networkAttachmentName: 'lab-vlan',
        },
      }),
      want: ['spec.networkConfig.gateway: outside network.cidr 198.51.100.0/25'],
    },
    {
      name: 'a domain name carrying a newline and a directive',
      input: exampleDhcpServer({ options: { domainName: 'lab.example.com\n"evil": 1' } }),
      want: ['spec.options.domainName: Invalid value'],
    },
    {
      name: 'a second VMI namespace that is not a word, and an excluded range in reverse',
      input: exampleDhcpServer({
        kubevirt: { namespaces: ['lab', 'a b'] },
        leaseConfig: {
          rangeStart: '198.51.100.20',
          rangeEnd: '198.51.100.120',
          excluded: ['198.51.100.9-198.51.100.1'],
        },
      }),
      want: ['spec.kubevirt.namespaces[1]: Invalid value'],
    },
    {
      name: 'an excluded range in reverse (past the gate: the server validator names it)',
      input: exampleDhcpServer({
        leaseConfig: {
          rangeStart: '198.51.100.20',
          rangeEnd: '198.51.100.120',
          excluded: ['198.51.100.9-198.51.100.1'],
        },
      }),
      want: ['spec.leaseConfig.excluded[0]: not an address, an inclusive range a-b or a CIDR'],
    },
    {
      name: 'a namespace listed twice, then one too long for the server (the spec index is kept)',
      input: exampleDhcpServer({ kubevirt: { namespaces: ['lab', 'lab', 'n'.repeat(64)] } }),
      want: ['spec.kubevirt.namespaces[2]: Expected string length less or equal to 63'],
    },
  ])('refused: $name', ({ input, want }) => {
    const r = renderDhcpConfig(input);
    expect(r.ok).toBe(false);
    const got = r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toContain(w));
  });
});
