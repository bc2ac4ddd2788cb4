import type { KubeObject } from '@oooi/kube';
import { exampleDnsServer } from '../testing/fixtures';
import { deploymentAvailability, desiredDnsStatus } from './dns-status';
import { renderDnsServer } from './render-dns-server';

const deployment = (status: Record<string, unknown>, generation = 2): KubeObject => ({
  metadata: { name: 'vlan100-dns', generation },
  spec: { replicas: 1 },
  status,
});
const available = { type: 'Available', status: 'True', message: 'Deployment has minimum availability.' };
const unavailable = {
  type: 'Available',
  status: 'False',
  message: 'Deployment does not have minimum availability.',
};

describe('deploymentAvailability', () => {
  test.each([
    {
      name: 'available for the current generation',
      input: deployment({ observedGeneration: 2, availableReplicas: 1, conditions: [available] }),
      want: { status: 'True', reason: 'DeploymentAvailable', message: '1/1 replicas available' },
    },
    {
      name: 'no Deployment',
      input: undefined,
      want: { status: 'False', reason: 'DeploymentMissing' },
    },
    {
      name: 'the controller has not seen the new spec',
      input: deployment({ observedGeneration: 1, availableReplicas: 1, conditions: [available] }),
      want: {
        status: 'False',
        reason: 'RolloutPending',
        message: 'the Deployment controller has observed generation 1 of 2',
      },
    },
    {
      name: 'unavailable: its own message is quoted',
      input: deployment({ observedGeneration: 2, availableReplicas: 0, conditions: [unavailable] }),
      want: { status: 'False', reason: 'DeploymentUnavailable', message: unavailable.message },
    },
    {
      name: 'no status yet',
      input: deployment({}, 1),
      want: { status: 'False', reason: 'RolloutPending' },
    },
  ])('$name', ({ input, want }) => expect(deploymentAvailability(input)).toMatchObject(want));
});

describe('desiredDnsStatus', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');

  test('an invalid spec keeps the last record count and lists the problems', () => {
    const dns = { ...exampleDnsServer({ spec: { cacheTTL: '0s' } }), status: { recordCount: 7 } };
    const status = desiredDnsStatus({ dns, rendered: renderDnsServer(dns), conflicts: [], now });
    expect(status.recordCount).toBe(7);
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: expect.stringContaining('spec.cacheTTL: "0s" must be a duration of at least 1s') as unknown,
    });
  });

  test('conditions of other writers are not part of our status body; our times move only on transitions', () => {
    const dns = exampleDnsServer();
    const rendered = renderDnsServer(dns);
    const first = desiredDnsStatus({ dns, rendered, conflicts: [], now });
    const withOther = {
      ...dns,
      status: {
        ...first,
        conditions: [
          ...(first.conditions ?? []),
          {
            type: 'Other',
            status: 'True' as const,
            reason: 'X',
            message: '',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    };
    const second = desiredDnsStatus({ dns: withOther, rendered, conflicts: [], now: now + 60_000 });
    expect(second.conditions?.map((c) => c.type)).toEqual(['Ready', 'Available', 'Forwarding']);
    expect(second.conditions).toEqual(first.conditions);
  });

  test('the Service ClusterIP is reported; a headless Service is not', () => {
    const dns = exampleDnsServer();
    const rendered = renderDnsServer(dns);
    const svc = (clusterIP: string): KubeObject => ({ spec: { clusterIP } });
    expect(
      desiredDnsStatus({ dns, rendered, conflicts: [], service: svc('10.96.0.53'), now }).serviceClusterIP,
    ).toBe('10.96.0.53');
    expect(
      desiredDnsStatus({ dns, rendered, conflicts: [], service: svc('None'), now }).serviceClusterIP,
    ).toBeUndefined();
  });
});
