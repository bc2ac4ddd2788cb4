import type { InfraClusterAttachment } from '@oooi/api';
import { attachment } from '../../testing/fixtures';
import { attachmentStatusWithoutInfra, desiredAttachmentStatus, withReachProblem } from './attachment-status';
import type { AttachmentFacts } from './attachment-status';

const facts = (more: Partial<AttachmentFacts> = {}): AttachmentFacts => ({
  infraName: 'vlan100',
  view: undefined,
  conflicts: [],
  problems: [],
  ...more,
});

const show = (a: InfraClusterAttachment, f: AttachmentFacts) =>
  desiredAttachmentStatus(a, f).conditions.map((c) => `${c.type}=${c.status} ${c.reason}`);

describe('desiredAttachmentStatus', () => {
  test.each([
    {
      name: 'aggregated, no apps ingress',
      a: attachment('a'),
      f: facts(),
      want: ['Aggregated=True Aggregated', 'Ready=True ReconciliationSucceeded'],
    },
    {
      name: 'apps ingress Ready',
      a: attachment('a', { apps: { phase: 'Ready', ip: '198.51.100.201' } }),
      f: facts(),
      want: ['Aggregated=True Aggregated', 'Ready=True AppsIngressReady'],
    },
    {
      name: 'apps ingress not reported yet',
      a: attachment('a', { apps: {} }),
      f: facts(),
      want: ['Aggregated=True Aggregated', 'Ready=False AppsIngressPending'],
    },
    {
      name: 'apps ingress Degraded keeps its reason',
      a: {
        ...attachment('a', { apps: {} }),
        status: {
          appsIngressStatus: { phase: 'Degraded' as const, reason: 'MetalLBInstallFailed', message: 'x' },
        },
      },
      f: facts(),
      want: ['Aggregated=True Aggregated', 'Ready=False MetalLBInstallFailed'],
    },
    {
      name: 'a conflict: Aggregated=False and Ready=False with its reason',
      a: attachment('a'),
      f: facts({
        conflicts: [
          {
            reason: 'DuplicateHostname',
            message: 'attachments "a" and "b" declare domain "a.example.com"',
            attachments: ['a', 'b'],
          },
        ],
      }),
      want: ['Aggregated=False DuplicateHostname', 'Ready=False DuplicateHostname'],
    },
    {
      name: 'a MetalLB problem: aggregated but not Ready',
      a: attachment('a', { apps: { phase: 'Ready', ip: '198.51.100.201' } }),
      f: facts({ problems: [{ reason: 'MetalLBRangeOverlap', message: 'overlap', objects: [] }] }),
      want: ['Aggregated=True Aggregated', 'Ready=False MetalLBRangeOverlap'],
    },
  ])('$name', ({ a, f, want }) => {
    expect(show(a, f)).toEqual(want);
  });

  test('domain and control-plane namespace are resolved', () => {
    const s = desiredAttachmentStatus(attachment('alpha', { hcNamespace: 'hcs' }), facts());
    expect([s.domain, s.controlPlaneNamespace]).toEqual(['alpha.example.com', 'hcs-alpha']);
  });

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
