import { formatIPv4, parseIPv4 } from '@oooi/api';
import * as fc from 'fast-check';
import { formatDottedQuad, parseDottedQuad } from './ip-text';

describe('parseDottedQuad', () => {
  test.each([
    { name: 'zero', input: '0.0.0.0', want: 0 },
    { name: 'broadcast', input: '255.255.255.255', want: 0xffffffff },
    { name: 'private', input: '10.0.1.254', want: 0x0a0001fe },
    { name: 'above 2^31', input: '198.18.0.1', want: 0xc6120001 },
    { name: 'empty', input: '', want: undefined },
    { name: 'three parts', input: '1.2.3', want: undefined },
    { name: 'five parts', input: '1.2.3.4.5', want: undefined },
    { name: 'an empty part', input: '1..3.4', want: undefined },
    { name: 'a trailing dot', input: '1.2.3.4.', want: undefined },
    { name: 'an octet above 255', input: '1.2.3.256', want: undefined },
    { name: 'a leading zero', input: '1.2.03.4', want: undefined },
    { name: 'hex', input: '0x1.2.3.4', want: undefined },
    { name: 'a sign', input: '1.2.3.+4', want: undefined },
    { name: 'IPv6', input: '::ffff:1.2.3.4', want: undefined },
    { name: 'spaces', input: ' 1.2.3.4', want: undefined },
  ])('$name', ({ input, want }) => {
    expect(parseDottedQuad(input)).toBe(want);
  });

  test('agrees with @oooi/api on every address and on dotted-quad-like text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
        expect(formatDottedQuad(v)).toBe(formatIPv4(v));
        expect(parseDottedQuad(formatIPv4(v))).toBe(v);
      }),
    );
    const part = fc.oneof(fc.nat({ max: 999 }).map(String), fc.stringMatching(/^[0-9a-fx.+ -]{0,4}$/));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
        const text = parts.join('.');
        expect(parseDottedQuad(text)).toBe(parseIPv4(text));
      }),
    );
  });
});
