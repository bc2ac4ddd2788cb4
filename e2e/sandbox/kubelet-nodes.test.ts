// Table tests of what the kubelet stand-in decides (kubelet-nodes.ts): placement under required anti-affinity, the
// strategy's order, the replica delta and when a lost node's pod is replaced. Pure: no rig peer is used.
import {
  placePod,
  podShape,
  replaceAfterMs,
  replaceSteps,
  replicaDelta,
  selects,
  type PlacedPod,
  type PodShape,
} from './kubelet-nodes';

const dns = { 'app.kubernetes.io/name': 'coredns', 'app.kubernetes.io/instance': 'vlan100-dns' };
const apart: PodShape = { labels: dns, antiAffinity: [{ matchLabels: dns }] };
const plain: PodShape = { labels: dns, antiAffinity: [] };
const other: PodShape = { labels: { app: 'x' }, antiAffinity: [] };
const on = (node: string, p: PodShape): PlacedPod => ({ ...p, node });
const nodes = ['n1', 'n2', 'n3'];

describe('placePod', () => {
  it.each<[string, readonly PlacedPod[], PodShape, ReadonlySet<string>, string | undefined]>([
    ['an empty cluster: the first node', [], apart, new Set(), 'n1'],
    ['the least loaded node', [on('n1', other)], other, new Set(), 'n2'],
    ['its anti-affinity keeps it off a node with a replica', [on('n1', plain)], apart, new Set(), 'n2'],
    // the first replica carries no anti-affinity; the second's still keeps them apart (both directions)
    ['a placed pod repels it', [on('n1', apart), on('n2', other), on('n2', other)], plain, new Set(), 'n3'],
    ['a down node takes nothing', [], apart, new Set(['n1']), 'n2'],
    [
      'no node fits: Pending',
      [on('n1', plain), on('n2', plain), on('n3', plain)],
      apart,
      new Set(),
      undefined,
    ],
    ['one node left, a replica on it: Pending', [on('n2', plain)], apart, new Set(['n1', 'n3']), undefined],
    [
      'no anti-affinity: shares a node',
      [on('n1', plain), on('n2', plain), on('n3', plain)],
      plain,
      new Set(),
      'n1',
    ],
  ])('%s', (...[, placed, pod, down, want]) => {
    expect(placePod(nodes, down, placed, pod)).toBe(want);
  });
});

describe('selects', () => {
  it.each<[string, Parameters<typeof selects>[0], boolean]>([
    ['empty selector selects all', {}, true],
    ['matchLabels equal', { matchLabels: { a: '1' } }, true],
    ['matchLabels differ', { matchLabels: { a: '2' } }, false],
    ['In', { matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '3'] }] }, true],
    ['NotIn', { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, false],
    ['Exists', { matchExpressions: [{ key: 'b', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'c', operator: 'DoesNotExist' }] }, true],
    ['unknown operator selects nothing', { matchExpressions: [{ key: 'a', operator: 'Gt' }] }, false],
  ])('%s', (_what, selector, want) => {
    expect(selects(selector, { a: '1', b: '2' })).toBe(want);
  });
});

it('podShape keeps only required terms on kubernetes.io/hostname', () => {
  const shape = podShape({
    metadata: { labels: dns },
    spec: {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: dns }, topologyKey: 'kubernetes.io/hostname' },
            { labelSelector: { matchLabels: dns }, topologyKey: 'topology.kubernetes.io/zone' },
          ],
        },
      },
    },
  });
  expect(shape).toEqual({ labels: dns, antiAffinity: [{ matchLabels: dns }] });
  expect(podShape(undefined)).toEqual({ labels: {}, antiAffinity: [] });
});

it.each<[string | undefined, readonly string[]]>([
  ['Recreate', ['stop-old', 'start-new']],
  ['RollingUpdate', ['start-new', 'stop-old']],
  [undefined, ['start-new', 'stop-old']],
])('replaceSteps(%s)', (strategy, want) => {
  expect(replaceSteps(strategy)).toEqual(want);
});

it.each<[number | undefined, number, number]>([
  [undefined, 0, 1],
  [1, 1, 0],
  [2, 1, 1],
  [0, 1, -1],
  [-3, 0, 0],
])('replicaDelta(%s, %s) = %s', (replicas, have, want) => {
  expect(replicaDelta(replicas, have)).toBe(want);
});

describe('replaceAfterMs (grace 40 s)', () => {
  const t = (key: string | undefined, seconds?: number, operator = 'Exists') => ({
    key,
    operator,
    effect: 'NoExecute',
    ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
  });
  it.each<[string, Parameters<typeof replaceAfterMs>[0], number | undefined]>([
    ['no tolerations: the admission default 300 s', undefined, 340_000],
    ["oooi's 15 s", [t('node.kubernetes.io/not-ready', 15), t('node.kubernetes.io/unreachable', 15)], 55_000],
    ['only not-ready tolerated: default for unreachable', [t('node.kubernetes.io/not-ready', 15)], 340_000],
    ['tolerated forever', [t('node.kubernetes.io/unreachable')], undefined],
    ['an empty key with Exists tolerates every taint', [t(undefined, 5)], 45_000],
    ['the shortest of several', [t('node.kubernetes.io/unreachable', 30), t(undefined, 10)], 50_000],
    ['NoSchedule does not count', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }], 340_000],
  ])('%s', (_what, tolerations, want) => {
    expect(replaceAfterMs(tolerations, 40_000)).toBe(want);
  });
});
