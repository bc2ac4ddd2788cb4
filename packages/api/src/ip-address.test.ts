import { parseGoDuration } from './duration';
import {
  cidrContains,
  formatRange,
  netmaskOf,
  parseAddressRange,
  parseCidrV4,
  parseIPv4,
} from './ip-address';

describe('parseIPv4', () => {
  test.each([
    { input: '0.0.0.0', want: 0 },
    { input: '198.51.100.10', want: 3325256714 },
    { input: '255.255.255.255', want: 4294967295 },
    { input: '198.51.100.01', want: undefined },
    { input: '198.51.100.256', want: undefined },
    { input: '198.51.100', want: undefined },
    { input: '198.51.100.1.2', want: undefined },
    { input: ' 198.51.100.1', want: undefined },
    { input: '::1', want: undefined },
    { input: '0xc6.51.100.1', want: undefined },
    { input: '3325256714', want: undefined },
  ])('$input', ({ input, want }) => expect(parseIPv4(input)).toBe(want));
});

describe('parseCidrV4', () => {
  test.each([
    { input: '198.51.100.0/24', want: { prefixLength: 24, network: 3325256704, broadcast: 3325256959 } },
    { input: '198.51.100.7/30', want: { prefixLength: 30, network: 3325256708, broadcast: 3325256711 } },
    { input: '0.0.0.0/0', want: { prefixLength: 0, network: 0, broadcast: 4294967295 } },
    { input: '198.51.100.0/33', want: undefined },
    { input: '198.51.100.0/024', want: undefined },
    { input: '198.51.100.0', want: undefined },
    { input: '198.51.100.00/24', want: undefined },
    { input: '2001:db8::/32', want: undefined },
  ])('$input', ({ input, want }) => {
    const c = parseCidrV4(input);
    expect(c && { prefixLength: c.prefixLength, network: c.network, broadcast: c.broadcast }).toEqual(want);
  });
});

test.each([
  { input: 24, want: '255.255.255.0' },
  { input: 25, want: '255.255.255.128' },
  { input: 0, want: '0.0.0.0' },
  { input: 32, want: '255.255.255.255' },
])('netmaskOf($input)', ({ input, want }) => expect(netmaskOf(input)).toBe(want));

test.each([
  { input: '198.51.100.200-198.51.100.209', want: '198.51.100.200-198.51.100.209' },
  { input: '198.51.100.208/29', want: '198.51.100.208-198.51.100.215' },
  { input: '198.51.100.5-198.51.100.5', want: '198.51.100.5' },
  { input: '198.51.100.9-198.51.100.5', want: undefined },
  { input: '198.51.100.9', want: undefined },
])('parseAddressRange($input)', ({ input, want }) => {
  const r = parseAddressRange(input);
  expect(r && formatRange(r)).toBe(want);
});

test.each([
  { input: '1h', want: 3_600_000 },
  { input: '1h30m', want: 5_400_000 },
  { input: '1.5h', want: 5_400_000 },
  { input: '90s', want: 90_000 },
  { input: '1.5s', want: 1500 },
  { input: '250ms', want: undefined },
  { input: '1h1h', want: undefined },
  { input: '30m1h', want: undefined },
  { input: '1d', want: undefined },
  { input: '', want: undefined },
  { input: '-1h', want: undefined },
])('parseGoDuration($input)', ({ input, want }) => expect(parseGoDuration(input)).toBe(want));

test.each([
  { cidr: '198.51.100.0/24', ip: '198.51.100.0', want: true },
  { cidr: '198.51.100.0/24', ip: '198.51.100.255', want: true },
  { cidr: '198.51.100.0/24', ip: '198.51.101.0', want: false },
  { cidr: '198.51.100.7/30', ip: '198.51.100.4', want: true },
  { cidr: '198.51.100.7/30', ip: '198.51.100.8', want: false },
  { cidr: '0.0.0.0/0', ip: '203.0.113.9', want: true },
])('cidrContains($cidr, $ip)', ({ cidr, ip, want }) => {
  expect(cidrContains(parseCidrV4(cidr)!, parseIPv4(ip)!)).toBe(want);
});
