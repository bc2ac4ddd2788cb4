import {
  controllerReference,
  parseRequestKey,
  refersToKind,
  requestKey,
  resourcePath,
  type KindDescriptor,
} from './kinds';

const configMaps: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const widgets: KindDescriptor = {
  group: 'example.io',
  version: 'v1alpha1',
  plural: 'widgets',
  kind: 'Widget',
};
const clusterThings: KindDescriptor = {
  group: 'example.io',
  version: 'v1',
  plural: 'things',
  kind: 'Thing',
  namespaced: false,
};

describe('resourcePath', () => {
  test.each([
    { name: 'core collection, all namespaces', kind: configMaps, where: {}, want: '/api/v1/configmaps' },
    {
      name: 'core collection in a namespace',
      kind: configMaps,
      where: { namespace: 'ns' },
      want: '/api/v1/namespaces/ns/configmaps',
    },
    {
      name: 'group object',
      kind: widgets,
      where: { namespace: 'ns', name: 'w' },
      want: '/apis/example.io/v1alpha1/namespaces/ns/widgets/w',
    },
    {
      name: 'status subresource',
      kind: widgets,
      where: { namespace: 'ns', name: 'w', subresource: 'status' },
      want: '/apis/example.io/v1alpha1/namespaces/ns/widgets/w/status',
    },
    {
      name: 'cluster-scoped ignores namespace',
      kind: clusterThings,
      where: { namespace: 'ns', name: 't' },
      want: '/apis/example.io/v1/things/t',
    },
    {
      name: 'subresource without a name is ignored',
      kind: widgets,
      where: { subresource: 'status' },
      want: '/apis/example.io/v1alpha1/widgets',
    },
    {
      name: 'names are escaped',
      kind: configMaps,
      where: { namespace: 'ns', name: 'a b' },
      want: '/api/v1/namespaces/ns/configmaps/a%20b',
    },
  ])('$name', ({ kind, where, want }) => expect(resourcePath(kind, where)).toBe(want));
});

describe('request keys', () => {
  test.each([
    { name: 'namespaced', req: { namespace: 'ns', name: 'a' }, key: 'ns/a' },
    { name: 'cluster-scoped', req: { namespace: '', name: 'a' }, key: 'a' },
  ])('$name round-trips', ({ req, key }) => {
    expect(requestKey(req)).toBe(key);
    expect(parseRequestKey(key)).toEqual(req);
  });
});

describe('owner references', () => {
  test('controllerReference points at the owner', () => {
    const ref = controllerReference(widgets, { metadata: { name: 'w', uid: 'u1' } });
    expect(ref).toEqual({
      apiVersion: 'example.io/v1alpha1',
      kind: 'Widget',
      name: 'w',
      uid: 'u1',
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(refersToKind(ref, widgets)).toBe(true);
    expect(refersToKind({ ...ref, apiVersion: 'example.io/v2' }, widgets)).toBe(true);
    expect(refersToKind({ ...ref, apiVersion: 'other.io/v1alpha1' }, widgets)).toBe(false);
    expect(refersToKind({ ...ref, apiVersion: 'v1', kind: 'ConfigMap' }, configMaps)).toBe(true);
  });

  test('an owner without uid is a wiring error', () => {
    expect(() => controllerReference(widgets, { metadata: { name: 'w' } })).toThrow('no name or uid');
  });
});
