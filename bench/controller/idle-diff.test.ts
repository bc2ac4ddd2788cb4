import type { KubeObject } from '@oooi/kube';
import { changedPaths, writers } from './idle-diff';

const cond = (type: string, status: string, at: string) => ({
  type,
  status,
  reason: type === 'Available' && status === 'True' ? 'DeploymentAvailable' : 'Other',
  lastTransitionTime: at,
});

const obj = (rv: string, conditions: object[], managed: object[] = []): KubeObject => ({
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'ProxyServer',
  metadata: { name: 'p', namespace: 'clusters', resourceVersion: rv, managedFields: managed },
  status: { conditions },
});

describe('changedPaths', () => {
  const ready = cond('Ready', 'True', 't0');
  const pending = cond('Available', 'False', 't1');
  const up = cond('Available', 'True', 't2');

  it.each([
    ['the same status, another resourceVersion', obj('1', [ready, pending]), obj('2', [ready, pending]), []],
    [
      'conditions in another order (keyed by type)',
      obj('1', [ready, pending]),
      obj('2', [pending, ready]),
      [],
    ],
    [
      'Available turning True',
      obj('1', [ready, pending]),
      obj('2', [ready, up]),
      [
        'status.conditions[Available].lastTransitionTime: "t1" → "t2"',
        'status.conditions[Available].reason: "Other" → "DeploymentAvailable"',
        'status.conditions[Available].status: "False" → "True"',
      ],
    ],
    [
      'a condition added',
      obj('1', [ready]),
      obj('2', [ready, pending]),
      [
        'status.conditions[Available].lastTransitionTime: ∅ → "t1"',
        'status.conditions[Available].reason: ∅ → "Other"',
        'status.conditions[Available].status: ∅ → "False"',
        'status.conditions[Available].type: ∅ → "Available"',
      ],
    ],
  ])('%s', (_, before, after, want) => {
    expect(changedPaths(before, after)).toEqual(want);
  });
});

describe('writers', () => {
  it('names the managedFields entries that are new in the later version', () => {
    const controller = { manager: 'oooi-controller', operation: 'Apply', subresource: 'status', time: 't1' };
    const xds = { manager: 'oooi-xds', operation: 'Apply', subresource: 'status', time: 't0' };
    const before = obj('1', [], [xds, controller]);
    const after = obj('2', [], [xds, { ...controller, time: 't2' }]);
    expect(writers(before, after)).toEqual(['oooi-controller Apply /status at t2']);
    expect(writers(before, before)).toEqual([]);
  });
});
