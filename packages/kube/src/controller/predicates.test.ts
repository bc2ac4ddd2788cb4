import type { ObjectMeta } from '../object';
import type { ObjectEvent, Predicate } from './handlers';
import {
  and,
  annotationsChanged,
  deletionTimestampSet,
  generationChanged,
  labelsChanged,
  not,
  or,
} from './predicates';

const obj = (meta: ObjectMeta = {}) => ({ metadata: { name: 'a', namespace: 'ns', generation: 1, ...meta } });
const update = (old: ObjectMeta, now: ObjectMeta): ObjectEvent => ({
  type: 'update',
  old: obj(old),
  obj: obj(now),
});
const add = (meta: ObjectMeta = {}): ObjectEvent => ({ type: 'add', obj: obj(meta) });
const del = (meta: ObjectMeta = {}): ObjectEvent => ({ type: 'delete', obj: obj(meta) });
const gone = '2026-12-01T00:00:00Z';

describe('predicates', () => {
  test.each<{ name: string; p: Predicate; event: ObjectEvent; want: boolean }>([
    { name: 'generationChanged: add passes', p: generationChanged, event: add(), want: true },
    { name: 'generationChanged: delete passes', p: generationChanged, event: del(), want: true },
    {
      name: 'generationChanged: spec change passes',
      p: generationChanged,
      event: update({ generation: 1 }, { generation: 2 }),
      want: true,
    },
    {
      name: 'generationChanged: status-only change is dropped (blind spot)',
      p: generationChanged,
      event: update({}, { resourceVersion: '9' }),
      want: false,
    },
    {
      name: 'labelsChanged: a new label passes',
      p: labelsChanged,
      event: update({ labels: { a: '1' } }, { labels: { a: '1', b: '2' } }),
      want: true,
    },
    {
      name: 'labelsChanged: same labels in another order are dropped',
      p: labelsChanged,
      event: update({ labels: { a: '1', b: '2' } }, { labels: { b: '2', a: '1' } }),
      want: false,
    },
    {
      name: 'labelsChanged: none and empty are the same',
      p: labelsChanged,
      event: update({}, { labels: {} }),
      want: false,
    },
    { name: 'labelsChanged: add passes', p: labelsChanged, event: add(), want: true },
    {
      name: 'annotationsChanged: a changed value passes',
      p: annotationsChanged,
      event: update({ annotations: { x: '1' } }, { annotations: { x: '2' } }),
      want: true,
    },
    {
      name: 'annotationsChanged: a label change is dropped',
      p: annotationsChanged,
      event: update({ labels: { a: '1' } }, { labels: { a: '2' } }),
      want: false,
    },
    {
      name: 'deletionTimestampSet: the update that sets it passes',
      p: deletionTimestampSet,
      event: update({}, { deletionTimestamp: gone }),
      want: true,
    },
    {
      name: 'deletionTimestampSet: later updates of a terminating object are dropped',
      p: deletionTimestampSet,
      event: update({ deletionTimestamp: gone }, { deletionTimestamp: gone, finalizers: [] }),
      want: false,
    },
    {
      name: 'deletionTimestampSet: an add of a terminating object passes (after a restart)',
      p: deletionTimestampSet,
      event: add({ deletionTimestamp: gone }),
      want: true,
    },
    {
      name: 'deletionTimestampSet: a plain add is dropped',
      p: deletionTimestampSet,
      event: add(),
      want: false,
    },
    { name: 'deletionTimestampSet: a delete is dropped', p: deletionTimestampSet, event: del(), want: false },
  ])('$name', ({ p, event, want }) => expect(p(event)).toBe(want));
});

describe('predicate combinators', () => {
  const spec = update({ generation: 1 }, { generation: 2 });
  const labels = update({ labels: { a: '1' } }, { labels: { a: '2' } });
  const status = update({}, { resourceVersion: '2' });
  const terminating = update({}, { deletionTimestamp: gone });

  test.each<{ name: string; p: Predicate; want: [boolean, boolean, boolean, boolean] }>([
    {
      name: 'or(generationChanged, labelsChanged)',
      p: or(generationChanged, labelsChanged),
      want: [true, true, false, false],
    },
    {
      name: 'and(generationChanged, labelsChanged)',
      p: and(generationChanged, labelsChanged),
      want: [false, false, false, false],
    },
    {
      name: 'or(generationChanged, deletionTimestampSet)',
      p: or(generationChanged, deletionTimestampSet),
      want: [true, false, false, true],
    },
    { name: 'not(generationChanged)', p: not(generationChanged), want: [false, true, true, true] },
    { name: 'and() passes everything', p: and(), want: [true, true, true, true] },
    { name: 'or() passes nothing', p: or(), want: [false, false, false, false] },
  ])('$name over [spec, labels, status, terminating]', ({ p, want }) => {
    expect([spec, labels, status, terminating].map((e) => p(e))).toEqual(want);
  });

  test('and stops at the first failure, or at the first success', () => {
    const calls: string[] = [];
    const spy =
      (name: string, result: boolean): Predicate =>
      () => {
        calls.push(name);
        return result;
      };
    and(spy('a', false), spy('b', true))(add());
    or(spy('c', true), spy('d', false))(add());
    expect(calls).toEqual(['a', 'c']);
  });
});
