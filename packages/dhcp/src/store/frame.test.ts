import { crc32, crc32js, frame, jsonFrame, jsonPayload, readFrames, scanFrames } from './frame';

test('CRC-32 check value (native and table agree, also over a part of a buffer)', () => {
  const b = Buffer.from('123456789');
  expect(crc32(b)).toBe(0xcbf43926);
  expect(crc32js(b)).toBe(0xcbf43926);
  expect(crc32js(Buffer.from('xx123456789y'), 2, 11)).toBe(0xcbf43926);
});

test('frames read back as spans; a flipped byte is skipped to the next valid frame and reported', () => {
  const long = Buffer.alloc(300, 7); // checked by zlib's CRC, the short ones by the table
  const b = Buffer.concat([jsonFrame({ a: 1 }), frame(long), jsonFrame({ b: 2 })]);
  const r = readFrames(b);
  expect(r).toEqual({ spans: [8, 15, 23, 323, 331, 338], damage: [] });
  expect(jsonPayload(b, r.spans[0]!, r.spans[1]!)).toEqual({ a: 1 });
  expect(b.subarray(r.spans[2], r.spans[3])).toEqual(long);
  expect(jsonPayload(b, r.spans[4]!, r.spans[5]!)).toEqual({ b: 2 });
  b[b.length - 2] = b[b.length - 2]! ^ 1;
  expect(readFrames(b)).toEqual({
    spans: [8, 15, 23, 323],
    damage: [{ offset: 323, bytes: 15, tail: true }],
  });
  b[b.length - 2] = b[b.length - 2]! ^ 1;
  b[100] = b[100]! ^ 1;
  expect(readFrames(b)).toEqual({
    spans: [8, 15, 331, 338],
    damage: [{ offset: 15, bytes: 308, tail: false }],
  });
});

test('zeros are damage, not empty frames', () => {
  const b = Buffer.concat([jsonFrame({ a: 1 }), Buffer.alloc(16), jsonFrame({ b: 2 })]);
  expect(readFrames(b)).toEqual({ spans: [8, 15, 39, 46], damage: [{ offset: 15, bytes: 16, tail: false }] });
});

test('a frame found past damage that the caller does not take is skipped like the damage', () => {
  const b = Buffer.concat([
    jsonFrame({ a: 1 }),
    Buffer.from([1, 2, 3]),
    jsonFrame({ no: 1 }),
    jsonFrame({ b: 2 }),
  ]);
  const seen: number[] = [];
  const damage = scanFrames(b, (start, end, afterDamage) => {
    if (
      afterDamage &&
      jsonPayload(b, start, end) !== undefined &&
      (jsonPayload(b, start, end) as { no?: number }).no
    )
      return false;
    seen.push(start);
    return true;
  });
  expect(seen).toEqual([8, 42]);
  expect(damage).toEqual([{ offset: 15, bytes: 19, tail: false }]);
});

test('a payload that is not JSON has no JSON value', () => {
  const b = frame(Buffer.from([2, 1, 0]));
  expect(jsonPayload(b, 8, 11)).toBeUndefined();
});
