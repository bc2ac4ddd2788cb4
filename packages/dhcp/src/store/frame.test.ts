import { crc32, crc32js, frame, readFrames } from './frame';

test('CRC-32 check value (native and table agree)', () => {
  const b = Buffer.from('123456789');
  expect(crc32(b)).toBe(0xcbf43926);
  expect(crc32js(b)).toBe(0xcbf43926);
});

test('frames read back; a flipped byte ends the readable part', () => {
  const b = Buffer.concat([frame({ a: 1 }), frame({ b: 2 })]);
  expect(readFrames(b)).toEqual({ values: [{ a: 1 }, { b: 2 }], goodBytes: b.length, torn: false });
  b[b.length - 2] = b[b.length - 2]! ^ 1;
  expect(readFrames(b).values).toEqual([{ a: 1 }]);
});
