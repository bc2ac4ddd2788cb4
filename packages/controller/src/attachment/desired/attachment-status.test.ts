import { attachment } from '../../testing/fixtures';
import { desiredAttachmentStatus } from '../../infra';
import type { AttachmentFacts } from '../../infra';
import { attachmentStatusWithoutInfra, withReachProblem } from './attachment-status';

const facts = (more: Partial<AttachmentFacts> = {}): AttachmentFacts => ({
  infraName: 'vlan100',
  view: undefined,
  conflicts: [],
  problems: [],
  ...more,
});

describe('attachmentStatusWithoutInfra', () => {
  test('no Infra', () => {
    const s = attachmentStatusWithoutInfra(attachment('a', { infra: 'gone' }));
    expect(s.conditions.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`)).toEqual([
      'Aggregated=False InfraNotFound: Infra "gone" not found in namespace "clusters"',
      'Ready=False InfraNotFound: Infra "gone" not found in namespace "clusters"',
    ]);
  });
});

describe('withReachProblem', () => {
  const problem = { reason: 'ChildNotControlled', message: 'Service clusters/a-proxy-external exists' };
  const show = (conditions: ReturnType<typeof withReachProblem>) =>
    conditions.map((c) => `${c.type}=${c.status} ${c.reason}`);

  test('a reach problem turns Ready=True False with its reason and message; Aggregated is left alone', () => {
    const plan = desiredAttachmentStatus(attachment('a'), facts());
    const out = withReachProblem(plan.conditions, problem);
    expect(show(out)).toEqual(['Aggregated=True Aggregated', 'Ready=False ChildNotControlled']);
    expect(out[1]!.message).toBe(problem.message);
  });

  test('a Ready already False keeps its own reason; no problem changes nothing', () => {
    const a = attachment('a', { apps: { phase: 'Pending' } });
    const pending = desiredAttachmentStatus(a, facts()).conditions;
    expect(withReachProblem(pending, problem)).toEqual(pending);
    const ready = desiredAttachmentStatus(attachment('a'), facts()).conditions;
    expect(withReachProblem(ready, undefined)).toEqual(ready);
  });
});
