import { validateObject } from './validate-object';
import { annotationErrors, labelErrors, validateMetadata } from './validate-metadata';
import { alpha, dns, errorsOf, infra, set } from '../testing/fixtures';

const paths = (obj: unknown): string[] => {
  const r = validateObject(obj);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('metadata.namespace is an RFC 1123 label, as the apiserver requires', () => {
  test.each([
    { name: 'a Corefile block and directive', ns: 'lab\n}\nimport /etc/passwd\n. {\n  whoami' },
    { name: 'a zone record', ns: 'clusters\nevil.example.com. IN A 203.0.113.66\n;' },
    { name: 'upper case', ns: 'Lab' },
    { name: 'a dot', ns: 'a.b' },
    { name: '64 characters', ns: 'a'.repeat(64) },
    { name: 'a number', ns: 42 },
  ])('$name is refused with the field named', ({ ns }) => {
    for (const obj of [infra, dns]) {
      const errors = paths(set(obj, 'metadata.namespace', ns));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^metadata\.namespace: Invalid value: /);
    }
  });

  test('a numeric namespace is not silently "default"', () => {
    expect(paths(set(infra, 'metadata.namespace', 42))).toEqual([
      'metadata.namespace: Invalid value: "42": must be a string',
    ]);
  });

  test('absent, empty (the default namespace) and 63 characters are fine', () => {
    expect(paths(set(infra, 'metadata.namespace', undefined))).toEqual([]);
    expect(paths(set(infra, 'metadata.namespace', ''))).toEqual([]);
    expect(paths(set(infra, 'metadata.namespace', 'a'.repeat(63)))).toEqual([]);
  });
});

describe('labels and annotations as apimachinery validates them', () => {
  test.each([
    { key: 'app', value: 'x', ok: true },
    { key: 'app.kubernetes.io/name', value: 'my.name-1_2', ok: true },
    { key: 'a', value: '', ok: true },
    { key: 'bad key', value: 'x', ok: false },
    { key: 'Example.com/x', value: 'x', ok: false },
    { key: 'a/b/c', value: 'x', ok: false },
    { key: '/x', value: 'x', ok: false },
    { key: 'x/', value: 'x', ok: false },
    { key: 'a'.repeat(64), value: 'x', ok: false },
    { key: 'app', value: 'has space', ok: false },
    { key: 'app', value: 'v'.repeat(64), ok: false },
    { key: 'app', value: '-x', ok: false },
  ])('label $key=$value: ok=$ok', ({ key, value, ok }) => {
    expect(labelErrors('metadata.labels', { [key]: value })).toHaveLength(ok ? 0 : 1);
  });

  test('annotation values may be anything; keys are qualified names; 256 KiB in total', () => {
    expect(annotationErrors('a', { 'external-dns.alpha.kubernetes.io/hostname': 'x y\nz' })).toEqual([]);
    expect(annotationErrors('a', { 'bad key': 'x' })).toHaveLength(1);
    expect(annotationErrors('a', { k: 'x'.repeat(256 * 1024) })).toEqual([
      { path: 'a', message: 'Too long: must have at most 262144 bytes' },
    ]);
  });

  test.each([
    'app',
    'example.com/publish',
    `${'a'.repeat(253)}/${'b'.repeat(63)}`,
    'bad key',
    'a/b/c',
    'n'.repeat(64),
    `${'a'.repeat(254)}/n`,
    'Example.com/n',
    '/n',
    'example.com/',
    '-x',
    'x_y.z',
  ])('the CRD rule for Service label keys agrees with the metadata check: %j', (key) => {
    const viaRule = errorsOf(set(alpha, 'spec.externalService.labels', { [key]: 'v' }));
    expect(viaRule.length).toBe(labelErrors('metadata.labels', { [key]: 'v' }).length);
  });

  test('metadata.labels of an object are checked', () => {
    expect(validateMetadata({ name: 'x', labels: { 'bad key': 'v' } })).toHaveLength(1);
    expect(paths(set(infra, 'metadata.labels', { 'bad key': 'v' }))[0]).toMatch(/^metadata\.labels: /);
  });
});

describe('prototype-named fields', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'spec.%s is an unknown field, not a property of Object',
    (key) => {
      const obj = structuredClone(infra) as { spec: Record<string, unknown> };
      Object.defineProperty(obj.spec, key, { value: { x: 1 }, enumerable: true });
      expect(paths(obj)).toContain(`spec.${key}: unknown field "spec.${key}"`);
    },
  );

  test.each(['constructor', '__proto__', 'toString'])('kind %s is an unsupported kind', (kind) => {
    expect(paths(set(infra, 'kind', kind))[0]).toMatch(/^kind: Unsupported value/);
  });

  test('a status that does not fit the schema is refused (render reads it)', () => {
    expect(paths(set(infra, 'status', { conditions: 'garbage' }))[0]).toMatch(
      /^status\.conditions: Invalid value: "string"/,
    );
  });
});
