import { canonicalJson, isSubset } from './canonical';

describe('canonicalJson', () => {
  test.each([
    {
      name: 'key order does not matter',
      a: { b: 1, a: { d: 2, c: 3 } },
      b: { a: { c: 3, d: 2 }, b: 1 },
      equal: true,
    },
    { name: 'undefined members are dropped', a: { a: 1, b: undefined }, b: { a: 1 }, equal: true },
    { name: 'array order matters', a: [1, 2], b: [2, 1], equal: false },
    { name: 'types matter', a: { a: '1' }, b: { a: 1 }, equal: false },
  ])('$name', ({ a, b, equal }) => expect(canonicalJson(a) === canonicalJson(b)).toBe(equal));
});

describe('isSubset', () => {
  test.each([
    { name: 'equal objects', want: { a: 1 }, live: { a: 1 }, ok: true },
    {
      name: 'live has more fields (defaults, other managers)',
      want: { spec: { a: 1 } },
      live: { spec: { a: 1, b: 2 }, status: {} },
      ok: true,
    },
    {
      name: 'same-length arrays, element-wise subset',
      want: { c: [{ name: 'x', image: 'i' }] },
      live: { c: [{ name: 'x', image: 'i', pull: 'Always' }] },
      ok: true,
    },
    {
      name: 'list-map with extra live entries',
      want: { conds: [{ type: 'A', status: 'True' }] },
      live: { conds: [{ type: 'B' }, { type: 'A', status: 'True' }] },
      ok: true,
    },
    { name: 'null means absent', want: { a: null }, live: {}, ok: true },
    { name: 'different scalar', want: { a: 1 }, live: { a: 2 }, ok: false },
    { name: 'missing field', want: { a: { b: 1 } }, live: { a: {} }, ok: false },
    {
      name: 'same-length arrays in another order',
      want: { args: ['a', 'b'] },
      live: { args: ['b', 'a'] },
      ok: false,
    },
    {
      name: 'scalar array with extra live items',
      want: { args: ['a'] },
      live: { args: ['a', 'b'] },
      ok: false,
    },
    { name: 'want longer than live', want: { c: [{ a: 1 }, { a: 2 }] }, live: { c: [{ a: 1 }] }, ok: false },
    {
      name: 'list-map entry changed',
      want: { conds: [{ type: 'A', status: 'True' }] },
      live: { conds: [{ type: 'B' }, { type: 'A', status: 'False' }] },
      ok: false,
    },
    { name: 'object vs array', want: { a: {} }, live: { a: [] }, ok: false },
    { name: 'null want, present live', want: { a: null }, live: { a: 1 }, ok: false },
  ])('$name', ({ want, live, ok }) => expect(isSubset(want, live)).toBe(ok));
});
