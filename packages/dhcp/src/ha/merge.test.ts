import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { mergePartnerLeases } from './merge';

const lease = (ip: number, key: string, over: Partial<Lease> = {}): Lease => ({
  ip,
  clientKey: key,
  mac: '02:00:00:00:00:01',
  state: 'bound',
  expiresAt: 1000,
  ...over,
});

test('the partner’s record wins, equal records are skipped, touched addresses keep their update, extras go back', () => {
  const t = new LeaseTable();
  t.set(lease(1, 'hw:a'));
  t.set(lease(2, 'hw:b', { expiresAt: 500 }));
  t.set(lease(3, 'hw:c'));
  t.set(lease(4, 'hw:d')); // only here
  t.set(lease(5, 'hw:e', { state: 'offered' })); // an offer is nobody's to give
  t.set(lease(6, 'hw:f')); // the partner has f at another address
  const partner = [
    lease(1, 'hw:a'),
    lease(2, 'hw:b', { expiresAt: 900 }),
    lease(3, 'hw:x', { expiresAt: 2000 }),
    lease(7, 'hw:f'),
    lease(8, 'hw:g'),
  ];
  const m = mergePartnerLeases(t, partner, new Set([8]));
  expect(m.take.map((l) => l.ip)).toEqual([2, 3, 7]);
  expect(m.give.map((l) => l.ip)).toEqual([4]);
});
