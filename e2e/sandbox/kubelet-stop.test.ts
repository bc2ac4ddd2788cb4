// The kubelet stand-in's stop order (kubelet-stop.ts): each container gets SIGTERM after its preStop sleep, capped.
import { PRESTOP_CAP_MS, stopDelays, type StopContainer } from './kubelet-stop';

const sleep = (seconds: number) => ({ preStop: { sleep: { seconds } } });

it.each<[string, StopContainer[] | undefined, number | undefined, [string, number][]]>([
  ['no containers', undefined, undefined, []],
  [
    "the proxy's HA pod: Envoy behind its 30 s sleep (capped), keepalived and oooi-xds at once",
    [{ name: 'envoy', lifecycle: sleep(30) }, { name: 'oooi-xds' }, { name: 'keepalived' }],
    undefined,
    [
      ['envoy', PRESTOP_CAP_MS],
      ['oooi-xds', 0],
      ['keepalived', 0],
    ],
  ],
  ['a sleep under the cap', [{ name: 'a', lifecycle: sleep(2) }], 5000, [['a', 2000]]],
  ['a cap of 0: every container at once', [{ name: 'a', lifecycle: sleep(30) }], 0, [['a', 0]]],
  [
    'a hook that is not a sleep counts as none',
    [{ name: 'a', lifecycle: { preStop: {} } }],
    5000,
    [['a', 0]],
  ],
])('%s', (...[, containers, cap, want]) => {
  expect([...stopDelays(containers, cap)]).toEqual(want);
});
