import type { KubeObject } from '@oooi/kube';
import {
  deploymentRolledOut,
  gateRollout,
  POD_TEMPLATE_HASH_ANNOTATION,
  podTemplateHash,
  type ReplicaRollout,
} from './rollout-gate';

/** A replica Deployment NAME whose pod runs IMAGE (replicas: 1 unless given). */
function deployment(name: string, image: string, replicas?: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'clusters', labels: { app: 'x' } },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      template: {
        metadata: { labels: { app: 'x' } },
        spec: { containers: [{ name: 'c', image }] },
      },
    },
  };
}

type Health = 'available' | 'unavailable' | 'pending-generation' | 'old-pod-left';

/**
 * What the cache holds after the gate applied IMAGE to NAME: the annotation, the server's defaults in the template,
 * a creationTimestamp, and a status that is HEALTH.
 */
function observed(name: string, image: string, health: Health = 'available', annotated = true): KubeObject {
  const d = deployment(name, image);
  const hash = podTemplateHash(d);
  const spec = d.spec as { template: { metadata: Record<string, unknown>; spec: Record<string, unknown> } };
  spec.template.metadata.creationTimestamp = null;
  spec.template.spec.restartPolicy = 'Always';
  const status = {
    available: { observedGeneration: 4, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    unavailable: { observedGeneration: 4, replicas: 1, updatedReplicas: 1, availableReplicas: 0 },
    'pending-generation': { observedGeneration: 3, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
    'old-pod-left': { observedGeneration: 4, replicas: 2, updatedReplicas: 1, availableReplicas: 1 },
  }[health];
  return {
    ...d,
    metadata: {
      ...d.metadata,
      generation: 4,
      ...(annotated ? { annotations: { [POD_TEMPLATE_HASH_ANNOTATION]: hash } } : {}),
    },
    status,
  };
}

function image(body: KubeObject): string {
  return (body.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec
    .containers[0]!.image;
}

interface Row {
  name: string;
  /** Per replica: the image the plan wants, and what the cache holds (undefined: no Deployment yet). */
  replicas: { want: string; seen?: [string, Health?] }[];
  rollouts: ReplicaRollout[];
  /** The image each body applies. */
  images: string[];
}

const d = (i: number) => `dns${i === 0 ? '' : `-${i}`}`;

describe('gateRollout', () => {
  test.each<Row>([
    {
      name: 'nothing exists: every Deployment is created at once',
      replicas: [{ want: 'v2' }, { want: 'v2' }],
      rollouts: ['create', 'create'],
      images: ['v2', 'v2'],
    },
    {
      name: 'nothing changed: every one applied as desired',
      replicas: [
        { want: 'v1', seen: ['v1'] },
        { want: 'v1', seen: ['v1'] },
      ],
      rollouts: ['current', 'current'],
      images: ['v1', 'v1'],
    },
    {
      name: 'a change, all available: the first takes it, the second holds',
      replicas: [
        { want: 'v2', seen: ['v1'] },
        { want: 'v2', seen: ['v1'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['roll', 'hold', 'hold'],
      images: ['v2', 'v1', 'v1'],
    },
    {
      name: 'the first rolled but its controller has not observed it: the second holds',
      replicas: [
        { want: 'v2', seen: ['v2', 'pending-generation'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['current', 'hold'],
      images: ['v2', 'v1'],
    },
    {
      name: 'the first rolled and not yet available: the second holds',
      replicas: [
        { want: 'v2', seen: ['v2', 'unavailable'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['current', 'hold'],
      images: ['v2', 'v1'],
    },
    {
      name: 'the first rolled, its old pod still counted: the second holds',
      replicas: [
        { want: 'v2', seen: ['v2', 'old-pod-left'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['current', 'hold'],
      images: ['v2', 'v1'],
    },
    {
      name: 'the first rolled out and available: the second takes it, the third holds',
      replicas: [
        { want: 'v2', seen: ['v2'] },
        { want: 'v2', seen: ['v1'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['current', 'roll', 'hold'],
      images: ['v2', 'v2', 'v1'],
    },
    {
      name: 'a replica being created holds the others back (it serves nothing yet)',
      replicas: [{ want: 'v2', seen: ['v1'] }, { want: 'v2' }],
      rollouts: ['hold', 'create'],
      images: ['v1', 'v2'],
    },
    {
      name: 'a changed replica that serves nothing takes the change at once, the available one holds',
      replicas: [
        { want: 'v2', seen: ['v1'] },
        { want: 'v2', seen: ['v1', 'unavailable'] },
      ],
      rollouts: ['hold', 'roll'],
      images: ['v1', 'v2'],
    },
    {
      name: 'a bad image everywhere unavailable: the fix reaches every replica (none serves)',
      replicas: [
        { want: 'v3', seen: ['bad', 'unavailable'] },
        { want: 'v3', seen: ['bad', 'unavailable'] },
      ],
      rollouts: ['roll', 'roll'],
      images: ['v3', 'v3'],
    },
    {
      name: 'one replica never available (one node): the other keeps its running template',
      replicas: [
        { want: 'v2', seen: ['v1'] },
        { want: 'v2', seen: ['v2', 'unavailable'] },
      ],
      rollouts: ['hold', 'current'],
      images: ['v1', 'v2'],
    },
    {
      name: 'a single Deployment rolls at once',
      replicas: [{ want: 'v2', seen: ['v1'] }],
      rollouts: ['roll'],
      images: ['v2'],
    },
    {
      name: 'only the second changed (its address): it takes it',
      replicas: [
        { want: 'v1', seen: ['v1'] },
        { want: 'v2', seen: ['v1'] },
      ],
      rollouts: ['current', 'roll'],
      images: ['v1', 'v2'],
    },
  ])('$name', ({ replicas, rollouts, images }) => {
    const gated = gateRollout(
      replicas.map((r, i) => ({
        desired: deployment(d(i), r.want),
        ...(r.seen ? { observed: observed(d(i), r.seen[0], r.seen[1]) } : {}),
      })),
    );
    expect(gated.map((g) => g.rollout)).toEqual(rollouts);
    expect(gated.map((g) => image(g.body))).toEqual(images);
    expect(gated.map((g) => g.body.metadata?.name)).toEqual(replicas.map((_, i) => d(i)));
  });

  test('every body carries the hash of the template it applies; a held one keeps the observed hash', () => {
    const [rolled, kept] = gateRollout([
      { desired: deployment('a', 'v2'), observed: observed('a', 'v1') },
      { desired: deployment('b', 'v2'), observed: observed('b', 'v1') },
    ]);
    expect(rolled!.body.metadata?.annotations?.[POD_TEMPLATE_HASH_ANNOTATION]).toBe(
      podTemplateHash(deployment('a', 'v2')),
    );
    expect(kept!.body.metadata?.annotations?.[POD_TEMPLATE_HASH_ANNOTATION]).toBe(
      podTemplateHash(deployment('b', 'v1')),
    );
  });

  test('a held Deployment applies its other changes at once and the observed template without creationTimestamp', () => {
    const want = deployment('b', 'v2', 1);
    (want.metadata!.labels as Record<string, string>).extra = 'yes';
    const [, kept] = gateRollout([
      { desired: deployment('a', 'v2'), observed: observed('a', 'v1') },
      { desired: want, observed: observed('b', 'v1') },
    ]);
    expect(kept!.rollout).toBe('hold');
    expect(kept!.body.metadata?.labels).toEqual({ app: 'x', extra: 'yes' });
    expect((kept!.body.spec as { replicas: number }).replicas).toBe(1);
    // the server's defaults come along (SSA owns them too; a later rollout drops them and the server re-defaults)
    expect((kept!.body.spec as { template: unknown }).template).toEqual({
      metadata: { labels: { app: 'x' } },
      spec: { containers: [{ name: 'c', image: 'v1' }], restartPolicy: 'Always' },
    });
  });

  test('a Deployment written before the gate (no annotation) counts as changed', () => {
    const gated = gateRollout([
      { desired: deployment('a', 'v1'), observed: observed('a', 'v1', 'available', false) },
      { desired: deployment('b', 'v1'), observed: observed('b', 'v1', 'available', false) },
    ]);
    expect(gated.map((g) => g.rollout)).toEqual(['roll', 'hold']);
    // the held one applies its observed template, which is the desired one: nothing restarts either way
    expect(gated[1]!.body.metadata?.annotations).toBeUndefined();
  });

  test('the hash ignores key order', () => {
    const a = deployment('a', 'v1');
    const t = (a.spec as { template: Record<string, unknown> }).template;
    const b = { ...a, spec: { template: { spec: t.spec, metadata: t.metadata } } } as KubeObject;
    expect(podTemplateHash(b)).toBe(podTemplateHash(a));
  });
});

describe('deploymentRolledOut', () => {
  test.each([
    { name: 'available', d: observed('a', 'v1'), want: true },
    { name: 'missing', d: undefined, want: false },
    { name: 'generation not observed', d: observed('a', 'v1', 'pending-generation'), want: false },
    { name: 'no available replica', d: observed('a', 'v1', 'unavailable'), want: false },
    { name: 'an old pod still counted', d: observed('a', 'v1', 'old-pod-left'), want: false },
    { name: 'no status yet', d: deployment('a', 'v1'), want: false },
  ])('$name', ({ d: dep, want }) => {
    expect(deploymentRolledOut(dep)).toBe(want);
  });
});
