import type { KubeObject } from '../object';
import { ApplyMemo } from './apply-memo';

const body: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns' },
  data: { a: '1' },
};
const live = (
  rv: string,
  data: Record<string, string> = { a: '1' },
  extra: Record<string, unknown> = {},
): KubeObject => ({
  metadata: { name: 'c', namespace: 'ns', resourceVersion: rv, managedFields: [{ manager: 'me' }] },
  data,
  ...extra,
});

describe('ApplyMemo.verdict', () => {
  test.each<{
    name: string;
    remembered?: { body: KubeObject; rv: string };
    next: KubeObject;
    current?: KubeObject;
    skip: boolean;
    why: string;
  }>([
    {
      name: 'same body, live at the version we wrote',
      remembered: { body, rv: '5' },
      next: body,
      current: live('5'),
      skip: true,
      why: 'same-resource-version',
    },
    {
      name: 'same body, live moved on but still holds our values',
      remembered: { body, rv: '5' },
      next: body,
      current: live('9', { a: '1', b: 'theirs' }),
      skip: true,
      why: 'live-matches',
    },
    {
      name: 'key order in the body does not matter',
      remembered: { body, rv: '5' },
      next: {
        data: { a: '1' },
        metadata: { namespace: 'ns', name: 'c' },
        kind: 'ConfigMap',
        apiVersion: 'v1',
      },
      current: live('5'),
      skip: true,
      why: 'same-resource-version',
    },
    {
      name: 'nothing applied yet (first pass after start)',
      next: body,
      current: live('5'),
      skip: false,
      why: 'not-applied-yet',
    },
    {
      name: 'body changed',
      remembered: { body, rv: '5' },
      next: { ...body, data: { a: '2' } },
      current: live('5'),
      skip: false,
      why: 'body-changed',
    },
    {
      name: 'we dropped a field (the server must remove it)',
      remembered: { body: { ...body, data: { a: '1', b: '2' } }, rv: '5' },
      next: body,
      current: live('5', { a: '1', b: '2' }),
      skip: false,
      why: 'body-changed',
    },
    {
      name: 'no live object',
      remembered: { body, rv: '5' },
      next: body,
      current: undefined,
      skip: false,
      why: 'no-live-object',
    },
    {
      name: 'someone changed our field',
      remembered: { body, rv: '5' },
      next: body,
      current: live('9', { a: 'edited' }),
      skip: false,
      why: 'live-differs',
    },
  ])('$name', ({ remembered, next, current, skip, why }) => {
    const memo = new ApplyMemo();
    if (remembered) memo.remember('k', remembered.body, { metadata: { resourceVersion: remembered.rv } });
    expect(memo.verdict('k', next, current)).toEqual({ skip, why });
  });

  test('forget drops an object and its status entry', () => {
    const memo = new ApplyMemo();
    memo.remember('obj|', body, undefined);
    memo.remember('obj|status', body, undefined);
    memo.remember('other|', body, undefined);
    memo.forget('obj');
    expect(memo.size()).toBe(1);
  });
});
