import type { KubeObject } from '../object';
import { ApplyMemo, type SkipVerdict } from './apply-memo';

const body: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns' },
  data: { a: '1' },
};
const live = (rv: string, data: Record<string, string> = { a: '1' }): KubeObject => ({
  metadata: { name: 'c', namespace: 'ns', resourceVersion: rv, managedFields: [{ manager: 'me' }] },
  data,
});

interface Applied {
  part?: string;
  body: KubeObject;
  sentOn?: string;
  result: string;
}

describe('ApplyMemo.verdict', () => {
  test.each<{
    name: string;
    applied: Applied[];
    part?: string;
    next: KubeObject;
    current?: KubeObject;
    want: SkipVerdict;
  }>([
    {
      name: 'same body, live at the version we wrote',
      applied: [{ body, result: '5' }],
      next: body,
      current: live('5'),
      want: { skip: true, why: 'live-is-ours' },
    },
    {
      name: 'same body, cache still at the version we wrote on (lags our own write)',
      applied: [{ body, sentOn: '4', result: '5' }],
      next: body,
      current: live('4', { a: 'old' }),
      want: { skip: true, why: 'live-is-ours' },
    },
    {
      name: 'status: cache at the version our object apply produced (before our status apply)',
      applied: [
        { part: '', body, sentOn: '3', result: '4' },
        { part: 'status', body: { ...body, status: { ok: true } }, sentOn: '3', result: '5' },
      ],
      part: 'status',
      next: { ...body, status: { ok: true } },
      current: live('4'),
      want: { skip: true, why: 'live-is-ours' },
    },
    {
      name: 'same body, someone else wrote other fields',
      applied: [{ body, result: '5' }],
      next: body,
      current: live('9', { a: '1', b: 'theirs' }),
      want: { skip: true, why: 'live-matches' },
    },
    {
      name: 'key order in the body does not matter',
      applied: [{ body, result: '5' }],
      next: {
        data: { a: '1' },
        metadata: { namespace: 'ns', name: 'c' },
        kind: 'ConfigMap',
        apiVersion: 'v1',
      },
      current: live('5'),
      want: { skip: true, why: 'live-is-ours' },
    },
    {
      name: 'nothing applied yet (first pass after start)',
      applied: [],
      next: body,
      current: live('5'),
      want: { skip: false, why: 'not-applied-yet' },
    },
    {
      name: 'the object was applied but not this part',
      applied: [{ body, result: '5' }],
      part: 'status',
      next: body,
      current: live('5'),
      want: { skip: false, why: 'not-applied-yet' },
    },
    {
      name: 'body changed',
      applied: [{ body, result: '5' }],
      next: { ...body, data: { a: '2' } },
      current: live('5'),
      want: { skip: false, why: 'body-changed' },
    },
    {
      name: 'we dropped a field (the server must remove it)',
      applied: [{ body: { ...body, data: { a: '1', b: '2' } }, result: '5' }],
      next: body,
      current: live('5', { a: '1', b: '2' }),
      want: { skip: false, why: 'body-changed' },
    },
    {
      name: 'no live object',
      applied: [{ body, result: '5' }],
      next: body,
      current: undefined,
      want: { skip: false, why: 'no-live-object' },
    },
    {
      name: 'someone changed our field',
      applied: [{ body, result: '5' }],
      next: body,
      current: live('9', { a: 'edited' }),
      want: { skip: false, why: 'live-differs' },
    },
  ])('$name', ({ applied, part, next, current, want }) => {
    const memo = new ApplyMemo();
    for (const a of applied) {
      const sentOn = a.sentOn ? { metadata: { resourceVersion: a.sentOn } } : undefined;
      memo.remember('k', a.part ?? '', {
        body: a.body,
        sentOn,
        result: { metadata: { resourceVersion: a.result } },
      });
    }
    expect(memo.verdict('k', part ?? '', next, current)).toEqual(want);
  });

  test('forget drops one part, or the whole object', () => {
    const memo = new ApplyMemo();
    memo.remember('obj', '', { body, sentOn: undefined, result: undefined });
    memo.remember('obj', 'status', { body, sentOn: undefined, result: undefined });
    memo.forget('obj', 'status');
    expect(memo.verdict('obj', 'status', body, live('1')).why).toBe('not-applied-yet');
    expect(memo.verdict('obj', '', body, live('1', {})).why).toBe('live-differs');
    memo.forget('obj');
    expect(memo.size()).toBe(0);
  });

  test('only the last 16 of our resourceVersions are kept', () => {
    const memo = new ApplyMemo();
    for (let i = 1; i <= 20; i++)
      memo.remember('k', '', {
        body,
        sentOn: undefined,
        result: { metadata: { resourceVersion: String(i) } },
      });
    expect(memo.verdict('k', '', body, live('4', { a: 'x' })).why).toBe('live-differs');
    expect(memo.verdict('k', '', body, live('5', { a: 'x' })).why).toBe('live-is-ours');
  });
});

describe('ApplyMemo.freshest (read-your-writes)', () => {
  /** The server's answer to an apply: the whole object, managedFields included. */
  const answer = live;
  /** Two writes of ours: sent on 3 (answered 4), then sent on 4 (answered 5). */
  const memoWithTwoWrites = (): ApplyMemo => {
    const memo = new ApplyMemo();
    memo.remember('k', 'status', { body, sentOn: live('3'), result: answer('4', { a: 'first' }) });
    memo.remember('k', 'status', { body, sentOn: live('4'), result: answer('5', { a: 'second' }) });
    return memo;
  };
  test.each([
    { name: 'the cache shows our newest write', current: live('5', { a: 'cache' }), want: 'cache' },
    { name: 'the cache lags one write of ours', current: live('4', { a: 'cache' }), want: 'second' },
    { name: 'the cache lags both writes of ours', current: live('3', { a: 'cache' }), want: 'second' },
    { name: 'someone else wrote after us', current: live('9', { a: 'cache' }), want: 'cache' },
  ])('$name', ({ current, want }) => {
    const got = memoWithTwoWrites().freshest('k', current);
    expect(got?.data).toEqual({ a: want });
    // What is kept of an answer holds no managedFields (the caches strip them too).
    if (want !== 'cache') expect(got?.metadata?.managedFields).toBeUndefined();
  });
  test('an object we never wrote, or one gone from the cache, is the cache’s', () => {
    const memo = memoWithTwoWrites();
    expect(memo.freshest('other', live('4'))).toEqual(live('4'));
    expect(memo.freshest('k', undefined)).toBeUndefined();
  });
});
