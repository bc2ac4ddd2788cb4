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
});
