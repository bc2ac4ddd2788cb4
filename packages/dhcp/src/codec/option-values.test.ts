import fc from 'fast-check';
import { decodeClasslessRoutes, encodeClasslessRoutes } from './classless-routes';
import { decodeDomainSearch, encodeDomainSearch } from './domain-search';
import {
  ipBytes,
  readIp,
  readIps,
  readText,
  readU16,
  readU32,
  textBytes,
  u16Bytes,
  u32Bytes,
} from './option-values';

const ip = (s: string) => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);

describe('option values', () => {
  test('RFC 3397 §4 example: "eng.apple.com" and "marketing.apple.com" share the suffix', () => {
    const b = encodeDomainSearch(['eng.apple.com', 'marketing.apple.com']);
    const want = [
      3,
      ...textBytes('eng'),
      5,
      ...textBytes('apple'),
      3,
      ...textBytes('com'),
      0,
      9,
      ...textBytes('marketing'),
      0xc0,
      4,
    ];
    expect([...b]).toEqual(want);
    expect(decodeDomainSearch(b)).toEqual(['eng.apple.com', 'marketing.apple.com']);
  });

  test('search lists round-trip', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    fc.assert(
      fc.property(
        fc.array(
          fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.')),
          { maxLength: 8 },
        ),
        (names) => {
          expect(decodeDomainSearch(encodeDomainSearch(names))).toEqual(names);
        },
      ),
    );
  });

  test.each([
    { name: 'forward pointer', input: [0xc0, 2, 0] },
    { name: 'self pointer', input: [1, 97, 0xc0, 2] },
    { name: 'label runs past end', input: [5, 97] },
    { name: 'no terminator', input: [1, 97] },
    { name: 'reserved label type 0x40', input: [0x41, 97, 0] },
  ])('domain search, malformed: $name', ({ input }) => {
    expect(decodeDomainSearch(Uint8Array.from(input))).toBeUndefined();
  });

  test('RFC 3442 §3 encodings', () => {
    const routes = [
      { network: ip('0.0.0.0'), prefixLength: 0, router: ip('198.51.100.1') },
      { network: ip('10.0.0.0'), prefixLength: 8, router: ip('198.51.100.1') },
      { network: ip('10.17.0.0'), prefixLength: 16, router: ip('198.51.100.2') },
      { network: ip('10.27.129.0'), prefixLength: 24, router: 0 },
      { network: ip('10.229.0.128'), prefixLength: 25, router: ip('198.51.100.3') },
    ];
    const b = encodeClasslessRoutes(routes);
    expect([...b.subarray(0, 10)]).toEqual([0, 198, 51, 100, 1, 8, 10, 198, 51, 100]);
    expect(decodeClasslessRoutes(b)).toEqual(routes);
    expect(decodeClasslessRoutes(Uint8Array.from([33, 0, 0, 0, 0]))).toBeUndefined();
    expect(decodeClasslessRoutes(Uint8Array.from([24, 10, 0]))).toBeUndefined();
  });

  test('scalars and address lists', () => {
    expect(readIps(ipBytes([ip('198.51.100.53'), ip('198.51.100.54')]))).toEqual([
      ip('198.51.100.53'),
      ip('198.51.100.54'),
    ]);
    expect(readIps(Uint8Array.of(1, 2, 3))).toBeUndefined();
    expect(readIp(ipBytes([1, 2]))).toBeUndefined();
    expect(readU32(u32Bytes(0xfffffffe))).toBe(0xfffffffe);
    expect(readU16(u16Bytes(1400))).toBe(1400);
    expect(readText(Uint8Array.of(0x76, 0x6d, 0))).toBe('vm');
  });
});
