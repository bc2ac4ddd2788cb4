import { crc32, crc32js, frame, jsonFrame, jsonPayload, readFrames } from './frame';

test('CRC-32 check value (native and table agree, also over a part of a buffer)', () => {
  const b = Buffer.from('123456789');
  expect(crc32(b)).toBe(0xcbf43926);
  expect(crc32js(b)).toBe(0xcbf43926);
  expect(crc32js(Buffer.from('xx123456789y'), 2, 11)).toBe(0xcbf43926);
});

test('frames read back as spans; a flipped byte ends the readable part', () => {
  const long = Buffer.alloc(300, 7); // checked by zlib's CRC, the short ones by the table
  const b = Buffer.concat([jsonFrame({ a: 1 }), frame(long), jsonFrame({ b: 2 })]);
  const r = readFrames(b);
  expect(r).toEqual({ spans: [8, 15, 23, 323, 331, 338], goodBytes: b.length, torn: false });
  expect(jsonPayload(b, r.spans[0]!, r.spans[1]!)).toEqual({ a: 1 });
  expect(b.subarray(r.spans[2], r.spans[3])).toEqual(long);
  expect(jsonPayload(b, r.spans[4]!, r.spans[5]!)).toEqual({ b: 2 });
  b[b.length - 2] = b[b.length - 2]! ^ 1;
  expect(readFrames(b)).toEqual({ spans: [8, 15, 23, 323], goodBytes: 323, torn: true });
  b[100] = b[100]! ^ 1;
  expect(readFrames(b)).toEqual({ spans: [8, 15], goodBytes: 15, torn: true });
});

test('a payload that is not JSON has no JSON value', () => {
  const b = frame(Buffer.from([2, 1, 0]));
  expect(jsonPayload(b, 8, 11)).toBeUndefined();
});
