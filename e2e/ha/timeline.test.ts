// Table tests of timeline.ts: how long none of a component's replicas ran within a window, and whether every replica
// came up again. Pure: no rig peer is used.
import type { PodChange } from '../sandbox/kubelet';
import { allDownMs, allUpAgain } from './timeline';

const c = (at: number, deployment: string, up: boolean): PodChange => ({ at, deployment, node: 'n', up });
const both = ['a', 'b'];
const started = [c(0, 'a', true), c(0, 'b', true)];

it.each<[string, PodChange[], number]>([
  ['both up throughout', started, 0],
  [
    'one at a time',
    [...started, c(100, 'a', false), c(200, 'a', true), c(300, 'b', false), c(400, 'b', true)],
    0,
  ],
  ['both down 100-150', [...started, c(100, 'a', false), c(120, 'b', false), c(150, 'a', true)], 30],
  [
    'down before the window, up inside',
    [...started, c(10, 'a', false), c(20, 'b', false), c(300, 'b', true)],
    200,
  ],
  ['down until the end', [...started, c(500, 'a', false), c(600, 'b', false)], 400],
  ['never seen up', [], 900],
  [
    'other Deployments do not count',
    [...started, c(100, 'a', false), c(100, 'b', false), c(100, 'x', true)],
    900,
  ],
])('allDownMs: %s', (_what, timeline, want) => {
  expect(allDownMs(timeline, both, 100, 1000)).toBe(want);
});

it.each<[string, PodChange[], boolean]>([
  ['both came up after 50', [c(60, 'a', true), c(70, 'b', true)], true],
  ['one only', [c(60, 'a', true), c(40, 'b', true)], false],
  ['a stop is not a start', [c(60, 'a', true), c(70, 'b', false)], false],
])('allUpAgain: %s', (_what, timeline, want) => {
  expect(allUpAgain(timeline, both, 50)).toBe(want);
});
