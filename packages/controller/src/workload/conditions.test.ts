import { mergeConditions } from './conditions';

const t0 = Date.parse('2030-01-01T00:00:00Z');
const t1 = t0 + 3_600_000;

describe('mergeConditions', () => {
  const first = mergeConditions(
    undefined,
    [
      { type: 'Ready', status: 'True', reason: 'A', message: 'a' },
      { type: 'Available', status: 'Unknown', reason: 'B', message: 'b' },
    ],
    1,
    t0,
  );

  test('new conditions get now and the generation', () => {
    expect(first.map((c) => [c.type, c.lastTransitionTime, c.observedGeneration])).toEqual([
      ['Ready', '2030-01-01T00:00:00Z', 1],
      ['Available', '2030-01-01T00:00:00Z', 1],
    ]);
  });

  test.each([
    { name: 'same status: the transition time stays', status: 'True' as const, want: '2030-01-01T00:00:00Z' },
    {
      name: 'status changed: the transition time moves',
      status: 'False' as const,
      want: '2030-01-01T01:00:00Z',
    },
  ])('$name', ({ status, want }) => {
    const next = mergeConditions(first, [{ type: 'Ready', status, reason: 'C', message: 'c' }], 2, t1);
    expect(next).toEqual([
      { type: 'Ready', status, reason: 'C', message: 'c', lastTransitionTime: want, observedGeneration: 2 },
    ]);
  });

  test("other writers' conditions are not in our body; ours keep the planned order", () => {
    const foreign = [
      { type: 'ConfigAccepted', status: 'True' as const, reason: 'X', message: 'x', lastTransitionTime: 'x' },
      ...first.slice().reverse(),
    ];
    const next = mergeConditions(
      foreign,
      [
        { type: 'Ready', status: 'True', reason: 'A', message: 'a' },
        { type: 'Available', status: 'Unknown', reason: 'B', message: 'b' },
      ],
      1,
      t1,
    );
    expect(next).toEqual(first);
  });
});
