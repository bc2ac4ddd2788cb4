import fc from 'fast-check';
import { decodePacket } from './decode';
import { encodePacket } from './encode';
import { BOOTREQUEST, FLAG_BROADCAST, MessageType, Opt, macOf, messageType } from './packet';
import type { DhcpPacket } from './packet';

const zero = (n: number) => new Uint8Array(n);

const discover = (options: [number, number[]][]): DhcpPacket => ({
  op: BOOTREQUEST,
  htype: 1,
  hlen: 6,
  hops: 0,
  xid: 0xdeadbeef,
  secs: 3,
  flags: FLAG_BROADCAST,
  ciaddr: 0,
  yiaddr: 0,
  siaddr: 0,
  giaddr: 0,
  chaddr: Uint8Array.from([2, 0, 0, 0xaa, 0xbb, 0xcc, ...zero(10)]),
  sname: zero(64),
  file: zero(128),
  options: new Map(options.map(([c, v]) => [c, Uint8Array.from(v)])),
});

const arbPacket: fc.Arbitrary<DhcpPacket> = fc
  .record({
    op: fc.integer({ min: 0, max: 255 }),
    htype: fc.integer({ min: 0, max: 255 }),
    hlen: fc.integer({ min: 0, max: 16 }),
    hops: fc.integer({ min: 0, max: 255 }),
    xid: fc.nat({ max: 0xffffffff }),
    secs: fc.integer({ min: 0, max: 0xffff }),
    flags: fc.integer({ min: 0, max: 0xffff }),
    ciaddr: fc.nat({ max: 0xffffffff }),
    yiaddr: fc.nat({ max: 0xffffffff }),
    siaddr: fc.nat({ max: 0xffffffff }),
    giaddr: fc.nat({ max: 0xffffffff }),
    chaddr: fc.uint8Array({ minLength: 16, maxLength: 16 }),
    sname: fc.uint8Array({ minLength: 64, maxLength: 64 }),
    file: fc.uint8Array({ minLength: 128, maxLength: 128 }),
    options: fc.uniqueArray(
      fc.tuple(
        fc.integer({ min: 1, max: 254 }).filter((c) => c !== Opt.OVERLOAD),
        fc.uint8Array({ maxLength: 600 }),
      ),
      { selector: ([c]) => c, maxLength: 12 },
    ),
  })
  .map((r) => ({ ...r, options: new Map(r.options) }));

describe('codec', () => {
  test('any packet round-trips through encode and decode', () => {
    fc.assert(
      fc.property(arbPacket, (p) => {
        const r = decodePacket(encodePacket(p));
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.packet).toEqual(p);
      }),
      { numRuns: 500 },
    );
  });

  test('random bytes never throw; they decode or come back with a reason', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1500 }), (b) => {
        const r = decodePacket(b);
        expect(r.ok || typeof r.reason === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('mutated valid packets never throw', () => {
    const base = encodePacket(
      discover([
        [53, [1]],
        [55, [1, 3, 6, 15, 119, 121]],
        [61, [1, 2, 0, 0, 0xaa, 0xbb, 0xcc]],
      ]),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 12,
        }),
        fc.nat({ max: base.length }),
        (flips, cut) => {
          const b = base.slice(0, Math.max(cut, 240));
          for (const [at, v] of flips) if (at < b.length) b[at] = v;
          decodePacket(b);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('replies are padded to the 300-byte BOOTP minimum and end with END', () => {
    const b = encodePacket(discover([[53, [2]]]));
    expect(b.length).toBe(300);
    expect(b[243]).toBe(Opt.END);
  });

  test('an option longer than 255 bytes is split (RFC 3396) and joined again', () => {
    const long = Array.from({ length: 600 }, (_, i) => i & 255);
    const b = encodePacket(
      discover([
        [53, [1]],
        [119, long],
      ]),
    );
    expect(b[240 + 3]).toBe(119);
    expect(b[240 + 4]).toBe(255);
    const r = decodePacket(b);
    expect(r.ok && [...r.packet.options.get(119)!]).toEqual(long);
  });

  test('option overload (52) reads options from file and sname', () => {
    const b = encodePacket(
      discover([
        [53, [3]],
        [52, [3]],
      ]),
    );
    b.set([12, 3, 0x61, 0x62, 0x63, 255], 108); // file: hostname "abc"
    b.set([50, 4, 198, 51, 100, 7, 255], 44); // sname: requested IP
    const r = decodePacket(b);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.packet.options.keys()]).toEqual([53, 12, 50]);
    expect(r.packet.file).toEqual(zero(128));
  });

  test('decoded fields: message type, MAC', () => {
    const r = decodePacket(encodePacket(discover([[53, [MessageType.DISCOVER]]])));
    expect(r.ok && messageType(r.packet)).toBe(MessageType.DISCOVER);
    expect(r.ok && macOf(r.packet)).toBe('02:00:00:aa:bb:cc');
  });

  test.each([
    { name: 'Ethernet', hlen: 6, bytes: [0x02, 0, 0x0f, 0xaa, 0xbb, 0xff], want: '02:00:0f:aa:bb:ff' },
    { name: 'no hardware address', hlen: 0, bytes: [1, 2, 3], want: '' },
    { name: 'one byte', hlen: 1, bytes: [0x9], want: '09' },
    {
      name: 'hlen past chaddr is cut at 16 bytes',
      hlen: 20,
      bytes: Array.from({ length: 16 }, (_, i) => i * 17),
      want: '00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff',
    },
  ])('macOf: $name', ({ hlen, bytes, want }) => {
    const chaddr = new Uint8Array(16);
    chaddr.set(bytes);
    expect(macOf({ ...discover([[53, [1]]]), hlen, chaddr })).toBe(want);
  });

  const valid = encodePacket(discover([[53, [1]]]));
  const withCookie = (f: (b: Uint8Array) => void) => {
    const b = valid.slice();
    f(b);
    return b;
  };
  test.each([
    { name: 'empty', input: new Uint8Array(0), want: 'too_short' },
    { name: '10 bytes', input: new Uint8Array(10), want: 'too_short' },
    { name: 'bad cookie', input: withCookie((b) => (b[236] = 0)), want: 'bad_cookie' },
    { name: 'hlen 17', input: withCookie((b) => (b[2] = 17)), want: 'bad_hlen' },
    {
      name: 'option runs past the end',
      input: Uint8Array.from([...valid.slice(0, 240), 12, 200, 65]),
      want: 'option_overrun',
    },
    {
      name: 'code without length',
      input: Uint8Array.from([...valid.slice(0, 240), 53]),
      want: 'option_overrun',
    },
    {
      name: 'overload 4',
      input: Uint8Array.from([...valid.slice(0, 240), 52, 1, 4, 255]),
      want: 'bad_overload',
    },
    {
      name: 'overload, file overruns',
      input: withCookie((b) => {
        b.set([52, 1, 1, 255], 240);
        b[234] = 12;
        b[235] = 9;
      }),
      want: 'option_overrun',
    },
    { name: 'too long', input: new Uint8Array(70_000), want: 'too_long' },
  ])('malformed: $name → $want', ({ input, want }) => {
    expect(decodePacket(input)).toEqual({ ok: false, reason: want });
  });
});
