import { mapLimited } from './limited';

const tick = () => new Promise((r) => setTimeout(r, 1));

test('at most LIMIT steps in flight, results in order', async () => {
  let inFlight = 0;
  let most = 0;
  const got = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    for (let k = 0; k < n; k++) await tick();
    inFlight -= 1;
    return n * 10;
  });
  expect(got).toEqual([50, 10, 40, 20, 30, 0, 60]);
  expect(most).toBe(3);
});

test('steps start in order and overlap', async () => {
  const events: string[] = [];
  await mapLimited(['a', 'b', 'c'], 2, async (s) => {
    events.push(`start ${s}`);
    await tick();
    events.push(`end ${s}`);
  });
  expect(events.slice(0, 2)).toEqual(['start a', 'start b']);
  // c waits for a free lane: it starts only after a or b has ended
  expect(events.indexOf('start c')).toBeGreaterThan(
    Math.min(events.indexOf('end a'), events.indexOf('end b')),
  );
});

test('after an error no new step starts; the first error is thrown after the steps in flight end', async () => {
  const started: number[] = [];
  const ended: number[] = [];
  const run = mapLimited([0, 1, 2, 3, 4, 5], 3, async (n) => {
    started.push(n);
    await tick();
    if (n === 1) throw new Error('one');
    await tick();
    if (n === 2) throw new Error('two');
    for (let k = 0; k < 3; k++) await tick();
    ended.push(n);
  });
  await expect(run).rejects.toThrow('one');
  expect(started).toEqual([0, 1, 2]);
  // 0 was in flight when 1 failed: it ran to its end before the error came out
  expect(ended).toEqual([0]);
});

test('an empty list and a bad limit', async () => {
  await expect(mapLimited([], 4, () => Promise.resolve(1))).resolves.toEqual([]);
  await expect(mapLimited([1], 0, () => Promise.resolve(1))).rejects.toThrow('limit must be ≥ 1');
});
