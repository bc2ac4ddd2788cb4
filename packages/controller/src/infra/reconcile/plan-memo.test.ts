import type { DNSServer } from '@oooi/api';
import { attachment, infra, world } from '../../testing/fixtures';
import { PlanMemo, planKey } from './plan-memo';

const v = <T extends { metadata: object }>(o: T, rv: string): T => ({
  ...o,
  metadata: { ...o.metadata, resourceVersion: rv },
});

describe('PlanMemo', () => {
  const base = world(v(infra(), '1'), { attachments: [v(attachment('a'), '2')], services: [] });

  test('the same inputs at the same versions plan once', () => {
    const memo = new PlanMemo();
    expect(memo.plan(base)).toBe(memo.plan({ ...base }));
  });

  test.each([
    {
      name: 'a new version of an input plans again',
      next: { ...base, attachments: [v(attachment('a'), '3')] },
    },
    {
      name: 'a new input plans again',
      next: { ...base, attachments: [...base.attachments, v(attachment('b'), '4')] },
    },
    { name: 'an input without a version is never cached', next: { ...base, attachments: [attachment('a')] } },
  ])('$name', ({ next }) => {
    const memo = new PlanMemo();
    const first = memo.plan(next);
    if (planKey(next) === undefined) expect(memo.plan(next)).not.toBe(first);
    expect(memo.plan(base)).not.toBe(first);
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
    const edited = { ...base, children: { dns: v(foreign, '8') } };
    expect(memo.plan(edited)).not.toBe(memo.plan(next));
  });

  test('changed default images force a re-plan', () => {
    const memo = new PlanMemo();
    memo.plan(base);
    const next = { ...base, images: { ...base.images, dns: 'coredns/coredns:1.14.8' } };
    const plan = memo.plan(next).children.dns;
    expect(plan.action === 'apply' && plan.object.spec.image).toBe('coredns/coredns:1.14.8');
  });
});
