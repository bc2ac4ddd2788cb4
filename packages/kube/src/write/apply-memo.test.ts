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
