import type { KindDescriptor, Request } from '../kinds';
import type { KubeObject, OwnerReference } from '../object';
import {
  requestsForMap,
  requestsForObject,
  requestsForOwner,
  type MapFn,
  type ObjectEvent,
} from './handlers';

const widgets: KindDescriptor = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' };
const clusterWidgets: KindDescriptor = { ...widgets, namespaced: false };

const owner = (name: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'example.io/v1',
  kind: 'Widget',
  name,
  uid: `uid-${name}`,
  controller: true,
  ...extra,
});
interface Opts {
  ns?: string;
  owners?: OwnerReference[];
  labels?: Record<string, string>;
  generation?: number;
}
const obj = (
  name: string,
  { ns = 'ns', owners = [], labels = {}, generation = 1 }: Opts = {},
): KubeObject => ({
  metadata: { name, namespace: ns, ownerReferences: owners, labels, generation },
});
const r = (namespace: string, name: string): Request => ({ namespace, name });

describe('requestsForObject', () => {
  test.each<{ name: string; event: ObjectEvent; want: Request[] }>([
    { name: 'add', event: { type: 'add', obj: obj('a') }, want: [r('ns', 'a')] },
    {
      name: 'update is one request',
      event: { type: 'update', old: obj('a'), obj: obj('a') },
      want: [r('ns', 'a')],
    },
    { name: 'delete', event: { type: 'delete', obj: obj('a') }, want: [r('ns', 'a')] },
    { name: 'cluster-scoped', event: { type: 'add', obj: { metadata: { name: 'c' } } }, want: [r('', 'c')] },
  ])('$name', ({ event, want }) => expect(requestsForObject(event)).toEqual(want));
});

describe('requestsForOwner', () => {
  test.each<{ name: string; kind?: KindDescriptor; event: ObjectEvent; want: Request[] }>([
    {
      name: 'controller owner of the kind',
      event: { type: 'add', obj: obj('c', { owners: [owner('w')] }) },
      want: [r('ns', 'w')],
    },
    {
      name: 'owner moved: both old and new owners',
      event: {
        type: 'update',
        old: obj('c', { owners: [owner('w1')] }),
        obj: obj('c', { owners: [owner('w2')] }),
      },
      want: [r('ns', 'w1'), r('ns', 'w2')],
    },
    {
      name: 'same owner on update: one request',
      event: {
        type: 'update',
        old: obj('c', { owners: [owner('w')] }),
        obj: obj('c', { owners: [owner('w')] }),
      },
      want: [r('ns', 'w')],
    },
    {
      name: 'cluster-scoped owner gets no namespace',
      kind: clusterWidgets,
      event: { type: 'add', obj: obj('c', { owners: [owner('w')] }) },
      want: [r('', 'w')],
    },
    {
      name: 'non-controller owner ignored',
      event: { type: 'add', obj: obj('c', { owners: [owner('w', { controller: false })] }) },
      want: [],
    },
    {
      name: 'owner of another kind ignored',
      event: { type: 'add', obj: obj('c', { owners: [owner('w', { kind: 'Gadget' })] }) },
      want: [],
    },
    {
      name: 'owner of another group ignored',
      event: { type: 'add', obj: obj('c', { owners: [owner('w', { apiVersion: 'other.io/v1' })] }) },
      want: [],
    },
    { name: 'no owners', event: { type: 'delete', obj: obj('c') }, want: [] },
  ])('$name', ({ kind, event, want }) => expect(requestsForOwner(kind ?? widgets, event)).toEqual(want));
});

describe('requestsForMap', () => {
  const labelToWidget: MapFn = (o) => (o.metadata?.labels?.widget ? [r('ns', o.metadata.labels.widget)] : []);
  const fanOut: MapFn = () => [r('ns', 'x'), r('ns', 'y'), r('ns', 'x')];
  test.each<{ name: string; fn: MapFn; event: ObjectEvent; want: Request[] }>([
    {
      name: 'map on add',
      fn: labelToWidget,
      event: { type: 'add', obj: obj('c', { labels: { widget: 'a' } }) },
      want: [r('ns', 'a')],
    },
    {
      name: 'update runs on old and new',
      fn: labelToWidget,
      event: {
        type: 'update',
        old: obj('c', { labels: { widget: 'a' } }),
        obj: obj('c', { labels: { widget: 'b' } }),
      },
      want: [r('ns', 'a'), r('ns', 'b')],
    },
    {
      name: 'update with same target is one request',
      fn: labelToWidget,
      event: {
        type: 'update',
        old: obj('c', { labels: { widget: 'a' } }),
        obj: obj('c', { labels: { widget: 'a' } }),
      },
      want: [r('ns', 'a')],
    },
    {
      name: 'label removed still requeues the old target',
      fn: labelToWidget,
      event: { type: 'update', old: obj('c', { labels: { widget: 'a' } }), obj: obj('c') },
      want: [r('ns', 'a')],
    },
    {
      name: 'duplicates from the map function collapse',
      fn: fanOut,
      event: { type: 'update', old: obj('c'), obj: obj('c') },
      want: [r('ns', 'x'), r('ns', 'y')],
    },
    { name: 'map to nothing', fn: labelToWidget, event: { type: 'delete', obj: obj('c') }, want: [] },
  ])('$name', ({ fn, event, want }) => expect(requestsForMap(fn, event)).toEqual(want));
});
