import type { KubeObject } from '@oooi/kube';
import { exampleDnsServer } from '../testing/fixtures';
import { desiredDnsStatus } from './dns-status';
import { planDnsServer } from './plan-dns-server';

describe('desiredDnsStatus', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');

  test('an invalid spec keeps the last record count and lists the problems', () => {
    const dns = { ...exampleDnsServer({ spec: { cacheTTL: '0s' } }), status: { recordCount: 7 } };
    const status = desiredDnsStatus({ dns, rendered: planDnsServer(dns), conflicts: [], now });
    expect(status.recordCount).toBe(7);
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: expect.stringContaining('spec.cacheTTL: "0s" must be a duration of at least 1s') as unknown,
    });
  });

  test('conditions of other writers are not part of our status body; our times move only on transitions', () => {
    const dns = exampleDnsServer();
    const rendered = planDnsServer(dns);
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
    const rendered = planDnsServer(dns);
    const svc = (clusterIP: string): KubeObject => ({ spec: { clusterIP } });
    expect(
      desiredDnsStatus({ dns, rendered, conflicts: [], service: svc('10.96.0.53'), now }).serviceClusterIP,
    ).toBe('10.96.0.53');
    expect(
      desiredDnsStatus({ dns, rendered, conflicts: [], service: svc('None'), now }).serviceClusterIP,
    ).toBeUndefined();
  });
});
