import type { InfraClusterAttachment } from '@oooi/api';
import { attachment } from '../../testing/fixtures';
import { desiredAttachmentStatus } from './attachment-status';
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
});
