import { kinds } from '../kinds';
import { toCrd } from './crd';

type Node = Record<string, unknown>;
const schemaOf = (kind: string): Node => {
  const crd = toCrd(kinds.find((k) => k.kind === kind)!) as {
    spec: { versions: { schema: { openAPIV3Schema: Node } }[] };
  };
  return crd.spec.versions[0]!.schema.openAPIV3Schema;
};

/** Every schema node with its path, below the root. */
function* nodes(node: Node, path: string): Generator<[string, Node]> {
  yield [path, node];
  for (const [k, v] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
    if (path === '' && k === 'metadata') continue;
    yield* nodes(v, path ? `${path}.${k}` : k);
  }
  if (node.items) yield* nodes(node.items as Node, `${path}[]`);
  if (typeof node.additionalProperties === 'object')
    yield* nodes(node.additionalProperties as Node, `${path}{}`);
}

describe.each(kinds.map((k) => ({ kind: k.kind })))('the $kind CRD', ({ kind }) => {
  const all = [...nodes(schemaOf(kind), '')];

  test('is structural: every node typed, no unions, refs or consts', () => {
    const bad = all.filter(
      ([, n]) =>
        !n.type ||
        ['anyOf', 'oneOf', 'allOf', '$ref', 'const', 'patternProperties', '$schema', '$id'].some(
          (k) => k in n,
        ),
    );
    expect(bad.map(([p]) => p)).toEqual([]);
  });

  test('describes every field (kubectl explain shows it)', () => {
    const undocumented = all.filter(([p, n]) => !p.endsWith('{}') && typeof n.description !== 'string');
    expect(undocumented.map(([p]) => p)).toEqual([]);
  });

  test('bounds every string, list and map, so CEL rules stay inside the cost budget', () => {
    const unbounded = all.filter(
      ([p, n]) =>
        p !== 'apiVersion' &&
        p !== 'kind' &&
        ((n.type === 'string' && n.maxLength === undefined && n.format === undefined && !n.enum) ||
          (n.type === 'array' && n.maxItems === undefined) ||
          (typeof n.additionalProperties === 'object' && n.maxProperties === undefined)),
    );
    expect(unbounded.map(([p]) => p)).toEqual([]);
  });

  test('gives every CEL rule a message naming a field', () => {
    const rules = all.flatMap(
      ([, n]) => (n['x-kubernetes-validations'] as { rule: string; message: string }[] | undefined) ?? [],
    );
    expect(rules.filter((r) => !/^spec\.[A-Za-z0-9.[\]*]+ /.test(r.message))).toEqual([]);
    expect(rules.every((r) => !('check' in r))).toBe(true);
  });
});

test('short names and printer columns match the reference', () => {
  expect(Object.fromEntries(kinds.map((k) => [k.kind, k.shortNames]))).toEqual({
    Infra: ['infra'],
    InfraClusterAttachment: ['infraattachment', 'ica'],
    HostedClusterGrant: ['hcgrant'],
    DHCPServer: ['dhcpserver'],
    DNSServer: ['dnsserver', 'dns'],
    ProxyServer: ['proxyserver', 'proxy', 'proxies'],
  });
  const columns = (kind: string) => kinds.find((k) => k.kind === kind)!.printerColumns.map((c) => c.name);
  expect(columns('Infra')).toEqual(expect.arrayContaining(['Ready', 'Age']));
  expect(columns('InfraClusterAttachment')).toEqual(
    expect.arrayContaining(['Infra', 'HostedCluster', 'Domain', 'Ready', 'Age']),
  );
  expect(columns('DHCPServer')).toEqual(expect.arrayContaining(['Ready', 'Active Leases', 'Age']));
  expect(columns('DNSServer')).toEqual(expect.arrayContaining(['ServerIP', 'Ready', 'Age']));
  expect(columns('ProxyServer')).toEqual(
    expect.arrayContaining(['ServerIP', 'Port', 'Backends', 'Ready', 'Age']),
  );
});

test('image fields carry no schema default (the operator decides)', () => {
  const withDefaults = kinds.flatMap((k) =>
    [...nodes(schemaOf(k.kind), '')]
      .filter(([p, n]) => /[iI]mage$/.test(p) && 'default' in n)
      .map(([p]) => `${k.kind} ${p}`),
  );
  expect(withDefaults).toEqual([]);
});

test('status conditions are a list-map keyed by type (several field managers write them)', () => {
  for (const k of kinds.filter((x) => x.status)) {
    const conditions = [...nodes(schemaOf(k.kind), '')].find(([p]) => p === 'status.conditions')![1];
    expect(conditions['x-kubernetes-list-type']).toBe('map');
    expect(conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
  }
});
