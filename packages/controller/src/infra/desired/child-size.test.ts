import { attachment, infra, machine, nodePool, world } from '../../testing/fixtures';
import { aggregateInfra } from '../aggregate/aggregate-infra';
import type { MemberView } from '../aggregate/aggregate-infra';
import { builtinImages } from '../../workload/images';
import { fieldsV1Bytes, jsonBytes, storedBytes, withinSizeLimit } from './child-size';
import { planInfra } from './infra-plan';
import { desiredProxyServer } from './proxy-server';

// alpha: one Machine address; bravo: 40 (its kubernetes alias backends carry 40 source ranges: the bigger share).
const addresses = (n: number): string[] => Array.from({ length: n }, (_, i) => `198.51.100.${10 + i}`);
const i = infra();
const w = world(i, {
  attachments: [attachment('alpha'), attachment('bravo')],
  nodePools: [nodePool('alpha-np', 'alpha'), nodePool('bravo-np', 'bravo')],
  machines: [
    machine('a0', 'clusters-alpha', 'clusters/alpha-np', ['198.51.100.9']),
    machine('b0', 'clusters-bravo', 'clusters/bravo-np', addresses(40)),
  ],
});
const { views } = aggregateInfra(w);
const build = (vs: readonly MemberView[]) => desiredProxyServer(i, vs, builtinImages);
const planned = build(views);
const size = planned.action === 'apply' ? storedBytes(planned.object) : NaN;

describe('the size bound of a child', () => {
  test('the world routes both attachments with aliases', () => {
    expect(views.map((v) => [v.target.name, v.sourceRanges.length])).toEqual([
      ['alpha', 1],
      ['bravo', 40],
    ]);
  });

  test.each([
    { name: 'well under the bound: applied', max: size * 2, want: 'apply' },
    { name: 'exactly at the bound: applied', max: size, want: 'apply' },
    { name: 'one byte past the bound: blocked', max: size - 1, want: 'blocked' },
  ])('$name', ({ max, want }) => {
    const plan = withinSizeLimit(planned, { kind: 'ProxyServer', views, build, max });
    expect(plan.action).toBe(want);
    if (plan.action !== 'blocked') return;
    const [problem] = plan.problems;
    expect(problem?.reason).toBe('ChildTooLarge');
    expect(problem?.message).toContain(
      `ProxyServer clusters/vlan100-proxy would take ${size.toLocaleString('en-US')} bytes to store (its fields and their managedFields), over the limit of ${max.toLocaleString('en-US')} bytes for one object (docs/limits.md)`,
    );
    // The attachment contributing most is named first.
    expect(problem?.message).toMatch(/largest attachments: bravo \([\d,]+ bytes\), alpha \([\d,]+ bytes\)$/);
  });

  test('the managedFields estimate: one entry per named list item and per object member, atomic lists flat', () => {
    const record = { name: 'api.c.example.com', ip: '198.51.100.4' };
    // "k:{\"name\":\"api.c.example.com\"}":{".":{},"f:ip":{},"f:name":{}},
    expect(fieldsV1Bytes([record])).toBe(
      jsonBytes(record.name) + 20 + 2 * 6 + jsonBytes('ip') + jsonBytes('name'),
    );
    expect(fieldsV1Bytes({ ranges: ['198.51.100.9/32', '198.51.100.10/32'] })).toBe(jsonBytes('ranges') + 6);
    // Measured on the rig (bench/controller/size-limit.ts): 2 × 1,500 records of 196 characters were stored in
    // 1,401,758 bytes from a 669,264-byte body; the estimate is within 5 % of that.
    const name = (r: number) =>
      `api-int.${'c'.repeat(55)}${String(r).padStart(4, '0')}.${'e'.repeat(60)}.${'x'.repeat(60)}.com`;
    const records = Array.from({ length: 1500 }, (_, r) => ({ name: name(r), ip: '198.18.0.4' }));
    const dns = { spec: { views: { vlan: { records }, podNetwork: { records } } } };
    expect(Math.abs(storedBytes(dns) - 1_401_758) / 1_401_758).toBeLessThan(0.05);
  });

  test('a plan that is not applied passes through', () => {
    const blocked = { action: 'disabled' as const };
    expect(withinSizeLimit(blocked, { kind: 'ProxyServer', views, build, max: 1 })).toBe(blocked);
  });

  test('planInfra applies the bound: 140 clusters of 256 workers each on one /16 pass it', () => {
    const big = infra({
      networkConfig: { cidr: '198.18.0.0/16', gateway: '198.18.0.1' },
      infraComponents: {
        dhcp: { serverIP: '198.18.0.2', rangeStart: '198.18.200.1', rangeEnd: '198.18.200.254' },
        dns: { serverIP: '198.18.0.3' },
        proxy: { serverIP: '198.18.0.4' },
      },
    });
    const n = 140;
    const names = Array.from({ length: n }, (_, k) => `c${k}`);
    const plan = planInfra(
      world(big, {
        attachments: names.map((c) => attachment(c)),
        nodePools: names.map((c) => nodePool(`${c}-np`, c)),
        machines: names.map((c, k) =>
          machine(
            `${c}-m`,
            `clusters-${c}`,
            `clusters/${c}-np`,
            Array.from({ length: 256 }, (_, j) => `198.18.${1 + k}.${j}`),
          ),
        ),
      }),
    );
    expect(plan.children.proxy).toMatchObject({ action: 'blocked', problems: [{ reason: 'ChildTooLarge' }] });
    expect(plan.children.dns.action).toBe('apply');
  });
});

describe('byte counts without encoding (the counts are what UTF-8 encoding the JSON gives)', () => {
  const utf8 = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;
  test.each([
    { name: 'plain ASCII', key: 'k:{"name":"api.c1.example.com"}' },
    { name: 'a quote and a backslash (escaped)', key: 'a"b\\c' },
    { name: 'control characters (escaped)', key: 'tab\there\nnew\u0001' },
    { name: 'DEL (not escaped)', key: 'x\u007fy' },
    { name: 'two- and three-byte characters', key: 'café-日本' },
    { name: 'an astral character (a surrogate pair)', key: 'k-😀' },
    { name: 'a lone surrogate (escaped by JSON.stringify)', key: 'k-\ud800' },
    { name: 'empty', key: '' },
  ])('$name', ({ key }) => {
    expect(jsonBytes(key)).toBe(utf8(key));
    expect(fieldsV1Bytes({ [key]: 1 })).toBe(utf8(key) + 6);
    expect(fieldsV1Bytes([{ name: key }])).toBe(utf8(key) + 20 + utf8('name') + 6);
  });
});
