import { backoffDelay, KeyedBackoff, type BackoffPolicy } from './backoff';

const policy: BackoffPolicy = { baseMs: 5, capMs: 1000, jitter: 0.5 };

describe('backoffDelay', () => {
  test.each([
    { name: 'first retry is the base', attempt: 0, random: 0, want: 5 },
    { name: 'doubles each time', attempt: 3, random: 0, want: 40 },
    { name: 'capped', attempt: 10, random: 0, want: 1000 },
    { name: 'huge attempt stays capped', attempt: 5000, random: 0, want: 1000 },
    { name: 'jitter only shortens', attempt: 3, random: 0.999, want: 20 },
    { name: 'jitter under the cap', attempt: 20, random: 0.5, want: 750 },
    { name: 'negative attempt counts as first', attempt: -1, random: 0, want: 5 },
  ])('$name', ({ attempt, random, want }) => {
    expect(backoffDelay(policy, attempt, () => random)).toBe(want);
  });

  test.each([
    { name: 'jitter above 1 is clamped', jitter: 3, want: 0 },
    { name: 'negative jitter is none', jitter: -1, want: 40 },
  ])('$name', ({ jitter, want }) => {
    expect(backoffDelay({ ...policy, jitter }, 3, () => 1)).toBe(want);
  });
});

describe('KeyedBackoff', () => {
  test('counts per key and forgets', () => {
    const b = new KeyedBackoff({ baseMs: 10, capMs: 100, jitter: 0 }, () => 0);
    expect([b.next('a'), b.next('a'), b.next('b'), b.next('a')]).toEqual([10, 20, 10, 40]);
    expect(b.attempts('a')).toBe(3);
    b.forget('a');
    expect(b.attempts('a')).toBe(0);
    expect(b.next('a')).toBe(10);
    expect(b.next('b')).toBe(20);
  });
});
