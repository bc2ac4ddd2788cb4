// A body object applied again is not hashed again (a plan reused while its inputs hold hands the client the same
// ProxyServer body, 282 KB, on every Infra pass); an equal body built anew is hashed, and still skipped.
import type { KubeObject } from '../object';
import * as canonical from './canonical';
import { ApplyMemo } from './apply-memo';

jest.mock('./canonical', () => {
  const actual = jest.requireActual<typeof canonical>('./canonical');
  return { ...actual, canonicalJson: jest.fn(actual.canonicalJson) };
});

const make = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns' },
  data: { a: '1' },
});
const live: KubeObject = { metadata: { name: 'c', namespace: 'ns', resourceVersion: '5' }, data: { a: '1' } };

test('the same body object is hashed once; an equal new one is hashed and skipped too', () => {
  const hashed = canonical.canonicalJson as jest.Mock;
  const memo = new ApplyMemo();
  const body = make();
  memo.remember('k', '', { body, sentOn: undefined, result: live });
  for (let i = 0; i < 5; i++)
    expect(memo.verdict('k', '', body, live)).toEqual({ skip: true, why: 'live-is-ours' });
  expect(hashed).toHaveBeenCalledTimes(1);
  expect(memo.verdict('k', '', make(), live)).toEqual({ skip: true, why: 'live-is-ours' });
  expect(hashed).toHaveBeenCalledTimes(2);
  const changed = { ...make(), data: { a: '2' } };
  expect(memo.verdict('k', '', changed, live)).toEqual({ skip: false, why: 'body-changed' });
});
