// The pair's frames: authenticated, numbered, every field checked; garbage never throws.
import { randomBytes } from 'node:crypto';
import {
  decodeMessage,
  leaseFrom,
  MAX_BODY_BYTES,
  MAX_HELLO_BYTES,
  newNonce,
  sealFrame,
  sessionKey,
  takeFrame,
  verifyFrame,
} from './wire';

const secret = Buffer.alloc(32, 7);
const lease = {
  ip: 0xc6336464,
  clientKey: 'hw:02:00:00:00:00:01',
  mac: '02:00:00:00:00:01',
  state: 'bound',
  expiresAt: 1,
};

function frameOf(buf: Buffer) {
  const f = takeFrame(buf);
  if (f.kind !== 'frame') throw new Error(f.kind);
  return f;
}

test('a sealed frame verifies under its key, direction and number only', () => {
  const key = sessionKey(secret, newNonce(), newNonce());
  const f = frameOf(sealFrame(key, 0, 5, { t: 'leases', id: 1, leases: [lease] }));
  expect(verifyFrame(key, 0, 5, f)).toBe(true);
  expect(verifyFrame(key, 0, 6, f)).toBe(false); // replayed later in the same session
  expect(verifyFrame(key, 1, 5, f)).toBe(false); // reflected back
  expect(verifyFrame(sessionKey(secret, newNonce(), newNonce()), 0, 5, f)).toBe(false); // another session
  expect(verifyFrame(Buffer.alloc(32, 8), 0, 5, f)).toBe(false); // another secret
  const tampered = Buffer.from(f.body);
  tampered[10] = tampered[10]! ^ 1;
  expect(verifyFrame(key, 0, 5, { body: tampered, tag: f.tag })).toBe(false);
  expect(decodeMessage(f.body)).toEqual({ t: 'leases', id: 1, leases: [lease] });
});

test('frames split anywhere are reassembled; an oversized length is refused before buffering', () => {
  const bytes = Buffer.concat([sealFrame(secret, 0, 0, { t: 'x' }), sealFrame(secret, 0, 1, { t: 'y' })]);
  for (let cut = 0; cut < bytes.length / 2; cut++) {
    const f = takeFrame(bytes.subarray(0, cut));
    expect(f.kind).toBe(cut >= bytes.length / 2 ? 'frame' : 'more');
  }
  expect(frameOf(frameOf(bytes).rest).body.toString()).toBe('{"t":"y"}');
  const huge = Buffer.alloc(8);
  huge.writeUInt32BE(MAX_BODY_BYTES + 1, 0);
  expect(takeFrame(huge)).toEqual({ kind: 'refused', reason: 'oversized' });
});

test.each([
  ['not JSON', '{'],
  ['no type', '{"id":1}'],
  ['unknown type', '{"t":"delete","id":1}'],
  ['a heartbeat with a made-up state', '{"t":"heartbeat","id":1,"state":"master"}'],
  ['a negative id', '{"t":"heartbeat","id":-1,"state":"ready"}'],
  ['a hello with a short nonce', '{"t":"hello","role":"primary","nonce":"00"}'],
  ['a hello with another role', '{"t":"hello","role":"boss","nonce":"00000000000000000000000000000000"}'],
  [
    'a lease with an offered state',
    `{"t":"leases","id":1,"leases":[${JSON.stringify({ ...lease, state: 'offered' })}]}`,
  ],
  ['a lease with a bad MAC', `{"t":"leases","id":1,"leases":[${JSON.stringify({ ...lease, mac: 'x' })}]}`],
  [
    'a lease with a huge client key',
    `{"t":"leases","id":1,"leases":[${JSON.stringify({ ...lease, clientKey: 'k'.repeat(2000) })}]}`,
  ],
  [
    'a lease with an address past 32 bits',
    `{"t":"leases","id":1,"leases":[${JSON.stringify({ ...lease, ip: 2 ** 32 })}]}`,
  ],
  ['leases that are not a list', '{"t":"leases","id":1,"leases":{}}'],
  ['a dump page without next', '{"t":"dump-ok","id":1,"leases":[]}'],
])('refused: %s', (_name, text) => {
  expect(decodeMessage(Buffer.from(text))).toBeUndefined();
});

test('random and mutated bodies never throw', () => {
  const good = Buffer.from(JSON.stringify({ t: 'leases', id: 1, leases: [lease] }));
  for (let i = 0; i < 20_000; i++) {
    const b = i % 2 === 0 ? randomBytes(i % 200) : Buffer.from(good);
    if (i % 2 === 1) b[i % b.length] = i & 0xff;
    expect(() => decodeMessage(b)).not.toThrow();
    expect(() => takeFrame(b)).not.toThrow();
  }
  expect(leaseFrom(lease)).toEqual(lease);
});

test('before the hello, a peer cannot make the reader wait for more than a hello', () => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(2000, 0);
  expect(takeFrame(len, MAX_HELLO_BYTES)).toEqual({ kind: 'refused', reason: 'oversized' });
  expect(takeFrame(len).kind).toBe('more');
});
