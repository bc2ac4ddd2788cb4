import { systemClock } from '../clock';
import { ApiError, type RestRequest } from './rest';
import { parseRetryAfter, RequestThrottle } from './throttle';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const get = (path = '/api/v1/namespaces/ns/configmaps'): RestRequest => ({ method: 'GET', path });

describe('RequestThrottle client-side QPS and burst', () => {
  test('the burst goes out at once, the rest at qps', async () => {
    const throttle = new RequestThrottle({ qps: 10, burst: 3, clock: systemClock() });
    const sentAt: number[] = [];
    const waits: number[] = [];
    throttle.observe({ throttled: (ms) => waits.push(ms), retried: () => undefined });
    const all = Array.from({ length: 5 }, () =>
      throttle.run(get(), () => Promise.resolve(sentAt.push(Date.now()))),
    );
    await jest.advanceTimersByTimeAsync(1000);
    await Promise.all(all);
    expect(sentAt).toEqual([0, 0, 0, 100, 200]);
    expect(waits).toEqual([100, 200]);
  });

  test('Lease requests skip the bucket, so a backlog never delays a renewal', async () => {
    const throttle = new RequestThrottle({ qps: 1, burst: 1, clock: systemClock() });
    const sent: string[] = [];
    const send = (what: string) => () => Promise.resolve(sent.push(what));
    const backlog = [throttle.run(get(), send('a')), throttle.run(get(), send('b'))];
    const lease = throttle.run(
      { method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l' },
      send('lease'),
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['a', 'lease']);
    await jest.advanceTimersByTimeAsync(1000);
    await Promise.all([...backlog, lease]);
    expect(sent).toEqual(['a', 'lease', 'b']);
  });

  test('qps Infinity turns the bucket off', async () => {
    const throttle = new RequestThrottle({ qps: Infinity, clock: systemClock() });
    let sent = 0;
    await Promise.all(Array.from({ length: 500 }, () => throttle.run(get(), () => Promise.resolve(++sent))));
    expect(sent).toBe(500);
  });

  test('a wait for a token ends with the request signal', async () => {
    const throttle = new RequestThrottle({ qps: 1, burst: 1, clock: systemClock() });
    await throttle.run(get(), () => Promise.resolve());
    const ctl = new AbortController();
    const send = jest.fn(() => Promise.resolve());
    const waiting = throttle.run({ ...get(), signal: ctl.signal }, send);
    const check = expect(waiting).rejects.toThrow('stop');
    ctl.abort(new Error('stop'));
    await check;
    expect(send).not.toHaveBeenCalled();
  });
});

describe('RequestThrottle Retry-After', () => {
  const tooMany = (after?: number): ApiError =>
    new ApiError(429, { message: 'Too many requests, please try again later.' }, after);

  test.each([
    {
      name: '429 with Retry-After 2 is retried after 2 s',
      error: tooMany(2),
      method: 'POST',
      want: [0, 2000],
    },
    {
      name: '429 without Retry-After is retried after 1 s',
      error: tooMany(),
      method: 'PATCH',
      want: [0, 1000],
    },
    {
      name: '503 with Retry-After is retried for a GET',
      error: new ApiError(503, {}, 1),
      method: 'GET',
      want: [0, 1000],
    },
    {
      name: '504 with Retry-After is not retried for a write (it may have been done)',
      error: new ApiError(504, {}, 1),
      method: 'POST',
      want: [0],
    },
    { name: '409 is not retried', error: new ApiError(409, {}), method: 'PUT', want: [0] },
    { name: 'a network error is not retried', error: new Error('ECONNRESET'), method: 'GET', want: [0] },
  ])('$name', async ({ error, method, want }) => {
    const throttle = new RequestThrottle({ clock: systemClock() });
    const retried: number[] = [];
    throttle.observe({ throttled: () => undefined, retried: (code) => retried.push(code) });
    const sentAt: number[] = [];
    const result = throttle
      .run({ method: method as RestRequest['method'], path: '/api/v1/x' }, () => {
        sentAt.push(Date.now());
        return sentAt.length === 1 ? Promise.reject(error) : Promise.resolve('ok');
      })
      .catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(5000);
    expect(sentAt).toEqual(want);
    expect(await result).toBe(want.length === 2 ? 'ok' : error);
    expect(retried).toHaveLength(want.length - 1);
  });

  test('gives up after maxRetries and returns the last 429; waits are capped', async () => {
    const throttle = new RequestThrottle({ clock: systemClock(), maxRetries: 3, maxRetryAfterMs: 5000 });
    const sentAt: number[] = [];
    const result = throttle
      .run(get(), () => {
        sentAt.push(Date.now());
        return Promise.reject(tooMany(3600));
      })
      .catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sentAt).toEqual([0, 5000, 10_000, 15_000]);
    expect(await result).toMatchObject({ code: 429 });
  });
});

describe('parseRetryAfter', () => {
  test.each([
    { value: '3', want: 3 },
    { value: ' 0 ', want: 0 },
    { value: undefined, want: undefined },
    { value: '', want: undefined },
    { value: 'soon', want: undefined },
    { value: 'Thu, 01 Jan 1970 00:00:10 GMT', want: 10 },
  ])('$value', ({ value, want }) => {
    expect(parseRetryAfter(value, 0)).toBe(want);
  });
});
