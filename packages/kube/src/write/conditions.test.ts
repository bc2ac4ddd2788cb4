import type { Condition } from '../object';
import {
  findCondition,
  isConditionTrue,
  removeCondition,
  setCondition,
  type ConditionUpdate,
} from './conditions';

const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const t1 = t0 + 60_000;
const ready = (status: Condition['status'], at: number, extra: Partial<Condition> = {}): Condition => ({
  type: 'Ready',
  status,
  reason: 'Provisioned',
  message: 'all good',
  lastTransitionTime: new Date(at).toISOString().replace('.000Z', 'Z'),
  observedGeneration: 1,
  ...extra,
});
const update = (status: Condition['status'], extra: Partial<ConditionUpdate> = {}): ConditionUpdate => ({
  type: 'Ready',
  status,
  reason: 'Provisioned',
  message: 'all good',
  observedGeneration: 1,
  ...extra,
});

describe('setCondition', () => {
  test.each<{ name: string; before: Condition[] | undefined; next: ConditionUpdate; want: Condition[] }>([
    {
      name: 'new type is added with now',
      before: undefined,
      next: update('True'),
      want: [ready('True', t1)],
    },
    {
      name: 'same status keeps the transition time',
      before: [ready('True', t0)],
      next: update('True'),
      want: [ready('True', t0)],
    },
    {
      name: 'same status, new reason/message/generation: time kept, fields updated',
      before: [ready('True', t0)],
      next: update('True', { reason: 'Again', message: 'm2', observedGeneration: 7 }),
      want: [ready('True', t0, { reason: 'Again', message: 'm2', observedGeneration: 7 })],
    },
    {
      name: 'status change moves the time',
      before: [ready('True', t0)],
      next: update('False'),
      want: [ready('False', t1)],
    },
    {
      name: 'Unknown to True is a transition',
      before: [ready('Unknown', t0)],
      next: update('True'),
      want: [ready('True', t1)],
    },
    {
      name: 'other types keep their place',
      before: [ready('True', t0, { type: 'Available' }), ready('True', t0)],
      next: update('False'),
      want: [ready('True', t0, { type: 'Available' }), ready('False', t1)],
    },
    {
      name: 'observedGeneration always set, even without other change',
      before: [ready('True', t0, { observedGeneration: undefined })],
      next: update('True', { observedGeneration: 3 }),
      want: [ready('True', t0, { observedGeneration: 3 })],
    },
  ])('$name', ({ before, next, want }) => {
    const snapshot = JSON.stringify(before);
    expect(setCondition(before, next, t1)).toEqual(want);
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  test('helpers find, test and remove', () => {
    const list = [ready('True', t0), ready('False', t0, { type: 'Available' })];
    expect(findCondition(list, 'Available')?.status).toBe('False');
    expect(isConditionTrue(list, 'Ready')).toBe(true);
    expect(isConditionTrue(list, 'Available')).toBe(false);
    expect(isConditionTrue(undefined, 'Ready')).toBe(false);
    expect(removeCondition(list, 'Ready').map((c) => c.type)).toEqual(['Available']);
  });
});
