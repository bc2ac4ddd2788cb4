import type { DNSServer, InfraClusterAttachment } from '@oooi/api';
import { attachment, trueCondition, grant, infra, world } from '../../testing/fixtures';
import { planInfra } from '../desired/infra-plan';
import type { InfraPlan, InfraWorld } from '../desired/infra-plan';
import { PlanMemo, planKey } from './plan-memo';

const v = <T extends { metadata: object }>(o: T, rv: string): T => ({
  ...o,
  metadata: { ...o.metadata, resourceVersion: rv },
});

/** A status write by the controller: new conditions, a new resourceVersion, nothing the plan reads. */
function statusWritten(a: InfraClusterAttachment, rv: string): InfraClusterAttachment {
  return v(
    {
      ...a,
      status: {
        ...a.status,
        observedGeneration: 1,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Aggregated',
            message: 'routed',
            lastTransitionTime: '2030-01-01T00:00:00Z',
            observedGeneration: 1,
          },
        ],
      },
    },
    rv,
  );
}

const appsReady = (a: InfraClusterAttachment, ip: string, rv: string): InfraClusterAttachment =>
  v({ ...a, status: { ...a.status, appsIngressStatus: { phase: 'Ready', externalIP: ip } } }, rv);

describe('PlanMemo', () => {
  const base = world(v(infra(), '1'), { attachments: [v(attachment('a'), '2')], services: [] });

  test('the same inputs at the same versions plan once', () => {
    const memo = new PlanMemo();
    expect(memo.plan(base)).toBe(memo.plan({ ...base }));
  });

  test('the same inputs in another order plan once (caches list in no stable order)', () => {
    const two = { ...base, attachments: [v(attachment('a'), '2'), v(attachment('b'), '3')] };
    const memo = new PlanMemo();
    expect(memo.plan(two)).toBe(memo.plan({ ...two, attachments: [...two.attachments].reverse() }));
  });

  test.each([
    {
      name: 'a new generation of an attachment plans again',
      next: {
        ...base,
        attachments: [
          v({ ...attachment('a'), metadata: { ...attachment('a').metadata, generation: 2 } }, '3'),
        ],
      },
    },
    {
      name: 'a new input plans again',
      next: { ...base, attachments: [...base.attachments, v(attachment('b'), '4')] },
    },
    {
      name: 'a terminating attachment plans again',
      next: { ...base, attachments: [v(attachment('a', { terminating: true }), '3')] },
    },
    {
      name: 'a new apps endpoint in the status plans again',
      next: { ...base, attachments: [appsReady(base.attachments[0]!, '198.51.100.30', '3')] },
    },
    {
      name: 'a new generation of the Infra plans again',
      next: {
        ...base,
        infra: v({ ...base.infra, metadata: { ...base.infra.metadata, generation: 2 } }, '5'),
      },
    },
    {
      name: 'a HostedClusterGrant appearing plans again',
      next: { ...base, grants: [v(grant('clusters', ['lab']), '6')] },
    },
    {
      name: 'a neighbour Infra on the VLAN appearing plans again',
      next: { ...base, neighbours: [{ infra: v(infra({}, 'vlan200'), '7'), attachments: [] }] },
    },
    { name: 'an input without a version is never cached', next: { ...base, attachments: [attachment('a')] } },
  ])('$name', ({ next }: { next: InfraWorld }) => {
    const memo = new PlanMemo();
    const first = memo.plan(next);
    if (planKey(next) === undefined) expect(memo.plan(next)).not.toBe(first);
    expect(memo.plan(base)).not.toBe(first);
  });

  test.each([
    {
      name: 'an attachment status write',
      next: { ...base, attachments: [statusWritten(base.attachments[0]!, '9')] },
    },
    {
      name: 'an Infra status write',
      next: { ...base, infra: v({ ...base.infra, status: { observedGeneration: 1 } }, '9') },
    },
  ])('a status-only write the plan does not read keeps the plan: $name', ({ next }: { next: InfraWorld }) => {
    const memo = new PlanMemo();
    const first = memo.plan(base);
    expect(planKey(next)).toBe(planKey(base));
    expect(memo.plan(next)).toBe(first);
    // The fields left out of the key are indeed not read: planning afresh decides the same.
    const decisions = (p: InfraPlan) => [p.children, p.attachments, p.aggregated.conflicts, p.pendingAliases];
    expect(decisions(planInfra(next))).toEqual(decisions(first));
  });

  test('a new generation of a neighbour’s attachment plans again (its MetalLB range is a claim on the VLAN)', () => {
    const at = (generation: number, rv: string) =>
      world(base.infra, {
        ...base,
        neighbours: [
          {
            infra: v(infra({}, 'vlan200'), '7'),
            attachments: [
              v(
                {
                  ...attachment('n', { infra: 'vlan200' }),
                  metadata: { name: 'n', namespace: 'clusters', generation },
                },
                rv,
              ),
            ],
          },
        ],
      });
    const memo = new PlanMemo();
    const first = memo.plan(at(1, '8'));
    expect(memo.plan(at(1, '8'))).toBe(first);
    expect(memo.plan(at(2, '9'))).not.toBe(first);
  });

  test('past the attachment limit an attachment becoming Aggregated plans again (the limit keeps routed ones)', () => {
    const many = Array.from({ length: 201 }, (_, i) =>
      v(attachment(`a${i}`, { clusterName: `c${i}` }), `${10 + i}`),
    );
    const over = { ...base, attachments: many };
    const aggregated: InfraClusterAttachment = {
      ...many[200]!,
      status: {
        conditions: [trueCondition('Aggregated', 'Aggregated', '2030-01-01T00:00:00Z')],
      },
    };
    const next = { ...over, attachments: [...many.slice(0, 200), v(aggregated, '999')] };
    expect(planKey(next)).not.toBe(planKey(over));
  });

  test('a changed child forces a re-plan: a DNSServer of that name that the Infra does not control appears', () => {
    const memo = new PlanMemo();
    expect(memo.plan(base).children.dns.action).toBe('apply');
    const foreign: DNSServer = {
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'DNSServer',
      metadata: { name: 'vlan100-dns', namespace: 'clusters', resourceVersion: '7' },
      spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3' } },
    };
    const next = { ...base, children: { dns: foreign } };
    expect(memo.plan(next).children.dns).toMatchObject({
      action: 'blocked',
      problems: [{ reason: 'ChildNotControlled' }],
    });
    const adopted: DNSServer = v(
      {
        ...foreign,
        metadata: {
          ...foreign.metadata,
          ownerReferences: [
            {
              apiVersion: 'hostedcluster.densityops.com/v1alpha1',
              kind: 'Infra',
              name: 'vlan100',
              uid: 'uid-vlan100',
              controller: true,
            },
          ],
        },
      },
      '8',
    );
    expect(memo.plan({ ...base, children: { dns: adopted } }).children.dns.action).toBe('apply');
  });

  test('a child status write keeps the plan (the plan reads only who controls a child)', () => {
    const first = planInfra(base).children.dns;
    if (first.action !== 'apply') throw new Error('the base plan applies the DNSServer');
    const live = v(first.object, '20');
    const written = v({ ...live, status: { observedGeneration: 1, recordCount: 5 } }, '21');
    expect(planKey({ ...base, children: { dns: written } })).toBe(
      planKey({ ...base, children: { dns: live } }),
    );
  });

  test('changed default images force a re-plan', () => {
    const memo = new PlanMemo();
    memo.plan(base);
    const next = { ...base, images: { ...base.images, dns: 'coredns/coredns:1.14.8' } };
    const plan = memo.plan(next).children.dns;
    expect(plan.action === 'apply' && plan.object.spec.image).toBe('coredns/coredns:1.14.8');
  });

  test('a control-plane namespace going or appearing plans again (the attachment stops or starts routing)', () => {
    const memo = new PlanMemo();
    const routed = memo.plan({ ...base, missingNamespaces: [] });
    const waiting = memo.plan({ ...base, missingNamespaces: ['clusters-a'] });
    expect(waiting).not.toBe(routed);
    expect(waiting.aggregated.waiting.map((w) => w.namespace)).toEqual(['clusters-a']);
    expect(memo.plan({ ...base, missingNamespaces: [] }).aggregated.views).toHaveLength(1);
  });
});

describe('PlanMemo at an epoch (plan-epoch.ts): one gather and one plan per Infra while no input moved', () => {
  const many = world(v(infra(), '1'), {
    attachments: Array.from({ length: 200 }, (_, i) => v(attachment(`a${i}`), String(10 + i))),
    services: [],
  });
  const id = 'clusters/vlan100';

  test('200 attachment passes at one epoch gather the world once and plan once', () => {
    const memo = new PlanMemo();
    let gathers = 0;
    const gather = (): InfraWorld => {
      gathers++;
      return many;
    };
    const plans = many.attachments.map((a) =>
      memo.attachmentPlan(memo.planAt(id, 3, gather), a.metadata.name),
    );
    expect(gathers).toBe(1);
    expect(memo.counts).toEqual({ reused: 199, compared: 0, planned: 1 });
    expect(plans.map((p) => p?.name)).toEqual(many.attachments.map((a) => a.metadata.name));
  });

  test('a moved epoch gathers again; unchanged inputs (a status write) are found by comparison, not planned', () => {
    const memo = new PlanMemo();
    const first = memo.planAt(id, 1, () => many);
    const written = {
      ...many,
      attachments: [statusWritten(many.attachments[0]!, '900'), ...many.attachments.slice(1)],
    };
    expect(memo.planAt(id, 2, () => written)).toBe(first);
    expect(memo.planAt(id, 2, () => ({ ...many, attachments: [] }))).toBe(first);
    expect(memo.counts).toEqual({ reused: 1, compared: 1, planned: 1 });
  });

  test('a moved epoch with a changed input plans again', () => {
    const memo = new PlanMemo();
    const first = memo.planAt(id, 1, () => many);
    const more = { ...many, attachments: [...many.attachments, v(attachment('late'), '901')] };
    const next = memo.planAt(id, 2, () => more);
    expect(next).not.toBe(first);
    expect(memo.attachmentPlan(next, 'late')?.name).toBe('late');
    expect(memo.counts.planned).toBe(2);
  });

  test('a world without resourceVersions is never reused, even at the same epoch', () => {
    const memo = new PlanMemo();
    const files = world(infra(), { attachments: [attachment('a')], services: [] });
    expect(memo.planAt(id, 1, () => files)).not.toBe(memo.planAt(id, 1, () => files));
  });
});
