import type { KindDescriptor } from '../kinds';
import type { OwnerReference } from '../object';
import { controllerReferences, isControlledBy } from './owner-references';

const widgets: KindDescriptor = {
  group: 'example.io',
  version: 'v1alpha1',
  plural: 'widgets',
  kind: 'Widget',
};
const gadgets: KindDescriptor = { group: 'other.io', version: 'v1alpha1', plural: 'widgets', kind: 'Widget' };

const ref = (over: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'example.io/v1alpha1',
  kind: 'Widget',
  name: 'w',
  uid: 'u1',
  controller: true,
  ...over,
});
const owned = (...ownerReferences: OwnerReference[]) => ({ metadata: { ownerReferences } });

describe('controllerReferences', () => {
  test('one controller reference to an owner with a uid', () => {
    expect(controllerReferences(widgets, { metadata: { name: 'w', uid: 'u1' } })).toEqual([
      {
        apiVersion: 'example.io/v1alpha1',
        kind: 'Widget',
        name: 'w',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  test('none for an owner without a uid (read from a file)', () => {
    expect(controllerReferences(widgets, { metadata: { name: 'w' } })).toEqual([]);
  });
});

describe('isControlledBy', () => {
  test.each([
    { name: 'same uid', obj: owned(ref()), owner: { name: 'w', uid: 'u1' }, want: true },
    {
      name: 'same uid, renamed reference',
      obj: owned(ref({ name: 'x' })),
      owner: { name: 'w', uid: 'u1' },
      want: true,
    },
    { name: 'owner without uid: by name', obj: owned(ref()), owner: { name: 'w' }, want: true },
    {
      name: 'reference without uid: by name',
      obj: owned(ref({ uid: '' })),
      owner: { name: 'w', uid: 'u1' },
      want: true,
    },
    {
      name: 'the controller among several references',
      obj: owned(ref({ name: 'a', uid: 'ua', controller: false }), ref()),
      owner: { name: 'w', uid: 'u1' },
      want: true,
    },
    {
      name: 'a re-created owner (other uid, same name)',
      obj: owned(ref()),
      owner: { name: 'w', uid: 'u2' },
      want: false,
    },
    { name: 'another name, no uid', obj: owned(ref()), owner: { name: 'v' }, want: false },
    {
      name: 'no controller reference',
      obj: owned(ref({ controller: false })),
      owner: { name: 'w', uid: 'u1' },
      want: false,
    },
    { name: 'no references at all', obj: { metadata: {} }, owner: { name: 'w', uid: 'u1' }, want: false },
    {
      name: 'another kind',
      obj: owned(ref({ kind: 'Gadget' })),
      owner: { name: 'w', uid: 'u1' },
      want: false,
    },
  ])('$name', ({ obj, owner, want }) => {
    expect(isControlledBy(obj, widgets, { metadata: owner })).toBe(want);
  });

  test('another group of the same kind name is another owner', () => {
    expect(isControlledBy(owned(ref()), gadgets, { metadata: { name: 'w' } })).toBe(false);
  });
});
