import type { InfraClusterAttachment } from '@oooi/api';
import { attachment, infra, world } from '../../testing/fixtures';
import { planInfra } from '../desired/infra-plan';
import { MAX_ATTACHMENTS_PER_INFRA, withinAttachmentLimit } from './limits';

const name = (i: number) => `c${String(i).padStart(4, '0')}`;
/** N attachments with apps ingress Ready, each with its own /29 range (so every backend and record exists). */
function many(n: number): InfraClusterAttachment[] {
  return Array.from({ length: n }, (_, i) => {
    const ip = `198.51.${100 + Math.floor(i / 32)}.${(i % 32) * 8 + 1}`;
    return attachment(name(i), {
      apps: { phase: 'Ready', ip, range: `${ip.replace(/\d+$/, String((i % 32) * 8))}/29` },
    });
  });
}
const wide = infra({ networkConfig: { cidr: '198.0.0.0/8', gateway: '198.0.0.1' } });

describe(`at most ${MAX_ATTACHMENTS_PER_INFRA} attachments per Infra`, () => {
  test('at the limit: every attachment routes and the children stay within their CRD limits', () => {
    const plan = planInfra(world(wide, { attachments: many(MAX_ATTACHMENTS_PER_INFRA) }));
    expect(plan.attachments.every((a) => a.conditions[0]!.status === 'True')).toBe(true);
    const proxy = plan.children.proxy.action === 'apply' ? plan.children.proxy.object : undefined;
    const dns = plan.children.dns.action === 'apply' ? plan.children.dns.object : undefined;
    expect(proxy?.spec.backends?.length).toBeLessThanOrEqual(2048);
    expect(proxy?.spec.backends?.length).toBeGreaterThanOrEqual(MAX_ATTACHMENTS_PER_INFRA * 7);
    expect(dns?.spec.views?.vlan?.records?.length).toBeLessThanOrEqual(4096);
  });

  test('one past it: the last in name order is left out and named, with the limit', () => {
    const plan = planInfra(world(wide, { attachments: many(MAX_ATTACHMENTS_PER_INFRA + 1) }));
    const last = plan.attachments.find((a) => a.name === name(MAX_ATTACHMENTS_PER_INFRA))!;
    expect(last.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'AttachmentLimitExceeded',
      message: `Infra "vlan100" routes at most ${MAX_ATTACHMENTS_PER_INFRA} attachments (docs/limits.md); 1 more were left out: ${name(MAX_ATTACHMENTS_PER_INFRA)}: they are not routed; the attachments already routed keep their routes`,
    });
    expect(plan.attachments.filter((a) => a.conditions[0]!.status === 'True')).toHaveLength(
      MAX_ATTACHMENTS_PER_INFRA,
    );
  });

  test('attachments already routed keep routing when a new one sorts before them', () => {
    const routed = (a: InfraClusterAttachment): InfraClusterAttachment => ({
      ...a,
      status: {
        ...a.status,
        conditions: [
          {
            type: 'Aggregated',
            status: 'True',
            reason: 'Aggregated',
            message: '',
            lastTransitionTime: '2030-01-01T00:00:00Z',
          },
        ],
      },
    });
    const list = [attachment('a-new'), routed(attachment('b-old')), routed(attachment('c-old'))];
    const r = withinAttachmentLimit(list, 2);
    expect(r.kept.map((a) => a.metadata.name)).toEqual(['b-old', 'c-old']);
    expect(r.over.map((a) => a.metadata.name)).toEqual(['a-new']);
  });
});
