import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import type { Lease } from '../allocate/lease-table';
import { frame } from './frame';
import { decodeRecord, encodeRecord, recordFrame } from './records';
import type { DecodedRecords } from './records';

const GOLDEN = join(__dirname, 'testdata', 'records-v2.golden.txt');

interface Row {
  readonly name: string;
  readonly seq: number;
  readonly lease: Lease;
}

const rows: Row[] = [
  {
    name: 'bound, key by MAC',
    seq: 1,
    lease: {
      ip: 0xc6336405,
      clientKey: 'hw:02:00:00:00:00:05',
      mac: '02:00:00:00:00:05',
      state: 'bound',
      expiresAt: 1796230000000,
    },
  },
  {
    name: 'bound, client identifier, host name',
    seq: 2,
    lease: {
      ip: 0xc6336406,
      clientKey: 'id:01020304',
      mac: 'aa:bb:cc:dd:ee:ff',
      state: 'bound',
      expiresAt: 1796230000001,
      hostname: 'vm-6',
    },
  },
  {
    name: 'released',
    seq: 2 ** 40,
    lease: {
      ip: 0,
      clientKey: 'hw:02:00:00:00:00:07',
      mac: '02:00:00:00:00:07',
      state: 'released',
      expiresAt: 0,
    },
  },
  {
    name: 'declined (no client)',
    seq: 4,
    lease: { ip: 0xffffffff, clientKey: '', mac: '', state: 'declined', expiresAt: 1796220600000 },
  },
  {
    name: 'a MAC that is not six bytes, a key that is not hw:<mac>, a UTF-8 host name',
    seq: 5,
    lease: {
      ip: 7,
      clientKey: 'hw:02:00:00:00:00:09',
      mac: '02:00:00:00:00:0A:0b',
      state: 'bound',
      expiresAt: 1e13,
      hostname: 'høst',
    },
  },
];

const decodeOne = (b: Buffer): DecodedRecords | undefined => {
  const into: DecodedRecords = { seqs: [], leases: [] };
  return decodeRecord(b, 0, b.length, into) ? into : undefined;
};

describe('lease records (v2, binary)', () => {
  test.each(rows)('$name: round trip', ({ seq, lease }) => {
    expect(decodeOne(encodeRecord(seq, lease))).toEqual({ seqs: [seq], leases: [lease] });
  });

  test.each(rows)('$name: framed in place as frame() frames it', ({ seq, lease }) => {
    expect(recordFrame(seq, lease)).toEqual(frame(encodeRecord(seq, lease)));
  });

  test('encodings match the golden file', () => {
    const text = rows.map((r) => `${r.name}\n${encodeRecord(r.seq, r.lease).toString('hex')}\n`).join('');
    // eslint-disable-next-line no-restricted-properties -- the one switch that rewrites golden files
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    if (!existsSync(GOLDEN)) throw new Error(`golden file ${GOLDEN} is missing: run with UPDATE_GOLDEN=1`);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  test('any lease round-trips', () => {
    const hex2 = fc.integer({ min: 0, max: 255 }).map((n) => n.toString(16).padStart(2, '0'));
    const mac = fc.oneof(
      fc.array(hex2, { minLength: 6, maxLength: 6 }).map((a) => a.join(':')),
      fc.string(),
    );
    const lease = fc
      .record({
        ip: fc.integer({ min: 0, max: 0xffffffff }),
        mac,
        key: fc.option(fc.string(), { nil: undefined }),
        state: fc.constantFrom('bound' as const, 'released' as const, 'declined' as const),
        expiresAt: fc.integer({ min: 0, max: 2 ** 50 }),
        hostname: fc.option(fc.string(), { nil: undefined }),
      })
      .map((r): Lease => ({
        ip: r.ip,
        clientKey: r.key ?? `hw:${r.mac}`,
        mac: r.mac,
        state: r.state,
        expiresAt: r.expiresAt,
        ...(r.hostname !== undefined ? { hostname: r.hostname } : {}),
      }));
    fc.assert(
      fc.property(fc.nat(), lease, (seq, l) => {
        expect(decodeOne(encodeRecord(seq, l))).toEqual({ seqs: [seq], leases: [l] });
      }),
    );
  });

  test('an offer is not a record', () => {
    expect(() => encodeRecord(1, { ...rows[0]!.lease, state: 'offered' })).toThrow(/offered/);
  });
});

describe('lease records (v1, JSON) still read', () => {
  test.each([
    {
      name: 'key by MAC',
      json: '{"q":1,"i":3325256709,"k":"hw:02:00:00:00:00:05","m":"02:00:00:00:00:05","s":"bound","e":1796230000000}',
      want: { seqs: [1], leases: [rows[0]!.lease] },
    },
    {
      name: 'with a host name',
      json: '{"q":2,"i":3325256710,"k":"id:01020304","m":"aa:bb:cc:dd:ee:ff","s":"bound","e":1796230000001,"h":"vm-6"}',
      want: { seqs: [2], leases: [rows[1]!.lease] },
    },
  ])('$name', ({ json, want }) => {
    expect(decodeOne(Buffer.from(json))).toEqual(want);
  });
});

describe('payloads that are not records', () => {
  const good = encodeRecord(1, rows[1]!.lease);
  const flipped = (at: number, v: number) => Buffer.from(good).fill(v, at, at + 1);
  test.each([
    { name: 'empty', payload: Buffer.alloc(0) },
    { name: 'v2 cut short in the fixed part', payload: good.subarray(0, 20) },
    { name: 'v2 cut short in a string', payload: good.subarray(0, good.length - 1) },
    { name: 'v2 with a byte after its end', payload: Buffer.concat([good, Buffer.from([0])]) },
    { name: 'v2 with an unknown state', payload: flipped(1, 9) },
    { name: 'v2 with unknown flags', payload: flipped(2, 0x80) },
    { name: 'an unknown tag', payload: flipped(0, 3) },
    { name: 'JSON that does not parse', payload: Buffer.from('{"q":1,') },
    {
      name: 'JSON with an unknown state',
      payload: Buffer.from('{"q":1,"i":1,"k":"","m":"","s":"toString","e":1}'),
    },
    { name: 'JSON of another shape', payload: Buffer.from('{"gen":1,"lastSeq":2}') },
  ])('$name', ({ payload }) => {
    expect(decodeOne(payload)).toBeUndefined();
  });
});
