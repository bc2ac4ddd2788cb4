// The watch shell over an in-memory API server (FakeRest, no real one: the e2e test has that): one cache per
// configured namespace and kind, never a cluster-wide list or watch, the index rebuilt
// on changes, and a release once the grace of a deleted standalone VMI ends (fake clock).
import { KubeMetrics, resourcePath, systemClock } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { KubevirtView } from '../allocate/kubevirt-view';
import { compileNetwork } from '../allocate/served-network';
import { dhcpMetrics } from '../metrics';
import { testConfig } from '../testing/packets';
import { vmiObject } from '../testing/kubevirt-objects';
import type { Release } from './aggregate/kubevirt-index';
import { KubevirtWatch, VmiKind } from './kubevirt-watch';

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 0, 1) }));
afterEach(() => jest.useRealTimers());

function setup() {
  const rest = new FakeRest();
  const registry = new Registry();
  const views: (KubevirtView | undefined)[] = [];
  const released: Release[] = [];
  const watch = new KubevirtWatch({
    rest,
    target: {
      served: compileNetwork(testConfig()),
      setKubevirt: (v) => views.push(v),
      release: (r) => (released.push(...r), Promise.resolve()),
    },
    metrics: dhcpMetrics(registry, () => 0).kubevirt,
    kubeMetrics: new KubeMetrics({ registry, component: 'dhcp' }),
    log: pino({ level: 'silent' }),
    clock: systemClock(),
  });
  const vmiPath = (ns: string, name: string) => resourcePath(VmiKind, { namespace: ns, name });
  return { rest, watch, views, released, vmiPath, last: () => views.at(-1) };
}

const block = (namespaces: string[]) => ({
  namespaces,
  networkName: 'vlan/vlan-net',
  unknownClients: 'refuse' as const,
  releaseGraceSeconds: 10,
});

test('one VMI and one VM cache per namespace, never cluster-wide; namespaces follow the config', async () => {
  const s = setup();
  s.watch.configure(block(['a', 'b']));
  await jest.advanceTimersByTimeAsync(100);
  expect(s.watch.synced()).toBe(true);
  const paths = () => [...new Set([...s.rest.requests, ...s.rest.watchRequests].map((r) => r.path))].sort();
  expect(paths()).toEqual([
    '/apis/kubevirt.io/v1/namespaces/a/virtualmachineinstances',
    '/apis/kubevirt.io/v1/namespaces/a/virtualmachines',
    '/apis/kubevirt.io/v1/namespaces/b/virtualmachineinstances',
    '/apis/kubevirt.io/v1/namespaces/b/virtualmachines',
  ]);
  s.watch.configure(block(['b', 'c']));
  await jest.advanceTimersByTimeAsync(100);
  expect(s.watch.namespaces()).toEqual(['b', 'c']);
  expect(s.rest.openWatches()).toBe(4);
  s.watch.stop();
});

test('VMI changes rebuild the view; a deleted standalone VMI is released after the grace', async () => {
  const s = setup();
  const alpha = vmiObject({
    namespace: 'a',
    name: 'alpha',
    mac: '02:00:00:00:00:01',
    ips: ['198.51.100.105'],
  });
  s.rest.seed(s.vmiPath('a', 'alpha'), {
    ...alpha,
    metadata: { ...alpha.metadata, managedFields: [{ manager: 'virt-handler' }] },
  });
  s.watch.configure(block(['a']));
  await jest.advanceTimersByTimeAsync(100);
  expect(s.last()?.synced).toBe(true);
  expect(s.last()?.clients.get('02:00:00:00:00:01')).toEqual({
    vmi: 'a/alpha',
    ip: 0xc6336469,
    hostname: 'alpha',
  });
  s.rest.remove(s.vmiPath('a', 'alpha'));
  await jest.advanceTimersByTimeAsync(9_000);
  expect(s.released).toEqual([]);
  expect(s.last()?.clients.has('02:00:00:00:00:01')).toBe(true);
  await jest.advanceTimersByTimeAsync(1_100);
  expect(s.released).toEqual([{ mac: '02:00:00:00:00:01', ip: 0xc6336469, vmi: 'a/alpha' }]);
  expect(s.last()?.clients.size).toBe(0);
  s.watch.configure(undefined);
  await jest.advanceTimersByTimeAsync(10);
  expect(s.last()).toBeUndefined();
  s.watch.stop();
});
