// The recovery window after a lost lease store: which offers wait for a probe, and what a probe hold keeps from
// whom (allocation, and decide's REQUEST states, over the same holds).
import { compileNetwork } from './served-network';
import { LeaseTable } from './lease-table';
import type { Lease } from './lease-table';
import { allocate } from './allocator';
import { offerNeedsProbe, probeHeld, recovering, recoveryOf } from './recovery';
import type { ProbeHold, ProbeQuestion } from './recovery';
import { decide } from '../decide/decide';
import { applyChange } from '../decide/apply';
import { ip, request, testConfig } from '../testing/packets';

const T0 = 1_000_000_000;
const HOUR = 3600;
const window = recoveryOf({ since: T0, reason: 'new_store' }, HOUR)!;
const X = ip('198.51.100.100');
const lease = (state: Lease['state']): Lease => ({
  ip: X,
  clientKey: 'hw:02:00:00:00:00:01',
  mac: '02:00:00:00:00:01',
  state,
  expiresAt: T0 + 1000,
});
const ask = (over: Partial<ProbeQuestion> = {}): ProbeQuestion => ({
  recovery: window,
  now: T0 + 1000,
  yiaddr: X,
  record: undefined,
  giaddr: 0,
  fixed: undefined,
  ...over,
});

describe('the window', () => {
  test.each([
    { name: 'at its start', now: T0, want: true },
    { name: 'a second before one lease time has passed', now: T0 + HOUR * 1000 - 1000, want: true },
    { name: 'one lease time after the store was found new: over', now: T0 + HOUR * 1000, want: false },
    { name: 'a clock before the mark (set back): not in it', now: T0 - 1, want: false },
  ])('$name', ({ now, want }) => expect(recovering(window, now)).toBe(want));

  test('no mark, no window; the lease time served now sets its end', () => {
    expect(recoveryOf(undefined, HOUR)).toBeUndefined();
    expect(recoveryOf({ since: T0, reason: 'damaged_store' }, 60)).toEqual({
      since: T0,
      reason: 'damaged_store',
      until: T0 + 60_000,
    });
  });
});

describe('offerNeedsProbe', () => {
  test.each([
    { name: 'an address the store has no record of, on our segment, in the window', q: ask(), want: true },
    {
      name: 'an address only offered so far (an offer is no record)',
      q: ask({ record: lease('offered') }),
      want: true,
    },
    { name: 'after the window', q: ask({ now: window.until }), want: false },
    { name: 'no window (the store was kept)', q: ask({ recovery: undefined }), want: false },
    {
      name: 'a relayed client (ARP does not reach its segment)',
      q: ask({ giaddr: ip('198.51.100.3') }),
      want: false,
    },
    { name: "the client's reservation or VMI-reported address", q: ask({ fixed: X }), want: false },
    {
      name: 'an address with a bound record (known since the loss)',
      q: ask({ record: lease('bound') }),
      want: false,
    },
    { name: 'a released one', q: ask({ record: lease('released') }), want: false },
    { name: 'a declined one', q: ask({ record: lease('declined') }), want: false },
  ])('$name', ({ q, want }) => expect(offerNeedsProbe(q)).toBe(want));
});

describe('probe holds', () => {
  const holder = '02:00:00:00:00:01';
  const holds = new Map<number, ProbeHold>([[X, { mac: holder, until: window.until }]]);

  test.each([
    { name: 'another client is kept off', mac: '02:00:00:00:00:02', now: T0, want: true },
    { name: 'the host that answered is not', mac: holder, now: T0, want: false },
    { name: 'nobody once the hold ended', mac: '02:00:00:00:00:02', now: window.until, want: false },
  ])('$name', ({ mac, now, want }) => expect(probeHeld(holds, X, mac, now)).toBe(want));

  const net = compileNetwork(testConfig());
  const client = (n: number) => {
    const mac = `02:00:00:00:00:0${n}`;
    return { key: `hw:${mac}`, hwKey: `hw:${mac}`, mac };
  };

  test('allocation passes a held address by, also when asked for, and gives it to its holder', () => {
    const table = new LeaseTable();
    const other = allocate({ net, table, now: T0, client: client(2), probeHolds: holds });
    expect(other).toEqual({ ok: true, ip: ip('198.51.100.101') });
    const asking = allocate({ net, table, now: T0, client: client(2), requested: X, probeHolds: holds });
    expect(asking).toEqual({ ok: true, ip: ip('198.51.100.101') });
    expect(allocate({ net, table, now: T0, client: client(1), requested: X, probeHolds: holds })).toEqual({
      ok: true,
      ip: X,
    });
  });

  test("the holder's renewal is ACKed and recorded; another client's renewal of the held address is NAKed", () => {
    const table = new LeaseTable();
    const renew = (mac: number) =>
      decide({
        packet: request({ type: 'REQUEST', mac, ciaddr: X }),
        net,
        table,
        now: T0 + 1000,
        sourceIp: X,
        arrival: 'unicast',
        offerHoldMs: 30_000,
        probeHolds: holds,
      });
    const stranger = renew(2);
    expect(stranger.kind === 'reply' && stranger.type).toBe('nak');
    const own = renew(1);
    expect(own.kind === 'reply' && own.type).toBe('ack');
    if (own.kind === 'reply') for (const c of own.changes) applyChange(table, c);
    expect(table.get(X)).toMatchObject({ mac: holder, state: 'bound' });
  });
});
