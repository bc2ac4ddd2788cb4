// The one status-and-Events step of every reconciler: the status write first, Events only after it and only when
// Ready changed. On FakeRest, which checks the field manager of every write.
import { resourcePath, type KindDescriptor } from '../kinds';
import type { Condition } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from '../write/client';
import { applyOwnerStatus, readyEvents } from './owner-status';

const Kind: KindDescriptor = { group: 'example.com', version: 'v1', plural: 'owners', kind: 'Owner' };
const path = resourcePath(Kind, { namespace: 'ns', name: 'o' });
const ready = (status: Condition['status'], reason: string, message = reason): Condition => ({
  type: 'Ready',
  status,
  reason,
  message,
  lastTransitionTime: '2026-12-01T00:00:00Z',
  observedGeneration: 1,
});

describe('readyEvents (the one Event rule)', () => {
  const cases: [string, Condition[] | undefined, Condition[], string[]][] = [
    ['first pass, True: nothing', undefined, [ready('True', 'Ok')], []],
    ['first pass, False: a Warning', undefined, [ready('False', 'Bad')], ['Warning Bad']],
    ['False unchanged: nothing', [ready('False', 'Bad')], [ready('False', 'Bad')], []],
    [
      'False, other message: a Warning',
      [ready('False', 'Bad')],
      [ready('False', 'Bad', 'x')],
      ['Warning Bad'],
    ],
    ['True to False: a Warning', [ready('True', 'Ok')], [ready('False', 'Bad')], ['Warning Bad']],
    ['False to True: a Normal', [ready('False', 'Bad')], [ready('True', 'Ok')], ['Normal Ok']],
    ['True, new message: nothing', [ready('True', 'Ok')], [ready('True', 'Ok', 'more')], []],
    ['Unknown: nothing', [ready('True', 'Ok')], [ready('Unknown', 'Wait')], []],
    ['no Ready: nothing', undefined, [{ ...ready('False', 'Bad'), type: 'Available' }], []],
  ];
  test.each(cases)('%s', (_name, before, after, want) => {
    expect(readyEvents(before, after).map((e) => `${e.type} ${e.reason}`)).toEqual(want);
  });

  test('a False Ready with named problems: one Warning each, duplicates folded', () => {
    const problems = [
      { reason: 'A', message: 'a' },
      { reason: 'B', message: 'b' },
      { reason: 'A', message: 'a' },
    ];
    expect(readyEvents(undefined, [ready('False', 'A', 'a; b')], problems)).toEqual([
      { type: 'Warning', reason: 'A', action: 'Reconcile', note: 'a' },
      { type: 'Warning', reason: 'B', action: 'Reconcile', note: 'b' },
    ]);
  });
});

function setup(conditions?: Condition[]) {
  const fake = new FakeRest({ fieldManager: 'test' });
  const client = new KubeClient({ rest: fake, fieldManager: 'test' });
  const seeded = { apiVersion: 'example.com/v1', kind: 'Owner', metadata: { name: 'o', namespace: 'ns' } };
  fake.seed(path, conditions ? { ...seeded, status: { conditions } } : seeded);
  /** Each Event with the number of writes the apiserver had seen when it was recorded. */
  const events: { reason: string; writesBefore: number }[] = [];
  const recorder = {
    event: (_: unknown, e: { reason: string }) =>
      events.push({ reason: e.reason, writesBefore: fake.writes().length }),
  };
  const pass = (status: { conditions: Condition[] }) =>
    applyOwnerStatus({ client, kind: Kind, owner: fake.peek(path)!, status, events: recorder });
  return { fake, events, pass };
}

describe('applyOwnerStatus', () => {
  test('the Event is recorded after the status write, and only on a change', async () => {
    const w = setup();
    await w.pass({ conditions: [ready('False', 'Bad')] });
    expect(w.events).toEqual([{ reason: 'Bad', writesBefore: 1 }]);
    expect(w.fake.writes().map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH ${path}/status`]);
    await w.pass({ conditions: [ready('False', 'Bad')] }); // unchanged: zero writes, no Event
    expect(w.fake.writes()).toHaveLength(1);
    expect(w.events).toHaveLength(1);
    expect(w.fake.violations).toEqual([]);
  });

  test('a status write that fails records no Event (the work queue retries the pass)', async () => {
    const w = setup([ready('True', 'Ok')]);
    w.fake.failNext((r) => r.path.endsWith('/status'), new ApiError(500, { message: 'boom' }));
    await expect(w.pass({ conditions: [ready('False', 'Bad')] })).rejects.toThrow('boom');
    expect(w.events).toEqual([]);
    await w.pass({ conditions: [ready('False', 'Bad')] });
    expect(w.events).toEqual([{ reason: 'Bad', writesBefore: 2 }]); // the failed request is one of the writes
  });

  test('recovery: one Normal, after the write', async () => {
    const w = setup([ready('False', 'Bad')]);
    await w.pass({ conditions: [ready('True', 'Ok')] });
    expect(w.events).toEqual([{ reason: 'Ok', writesBefore: 1 }]);
  });
});
