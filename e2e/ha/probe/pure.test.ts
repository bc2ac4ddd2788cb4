// Table tests of the probe's pure parts: the resolver order (resolv.conf as glibc applies it), the DNS wire format,
// the timing grid and DHCP step, and the report (failed operations, longest gap, double allocations, leases lost).
// No rig peer is used.
import { decodeReply, encodeRenew, renewOutcome } from './dhcp-wire';
import { parseProbeOutput } from './probe';
import { doubleAllocations, formatReport, longestGap, report, type OpRecord } from './report';
import { decodeHeader, encodeQuery, endsLookup, resolverTries } from './resolver';
import { dhcpStep, hookOutcome, nextDue } from './schedule';

it('resolverTries: every server in order, attempts rounds', () => {
  expect(resolverTries(['a', 'b'], { timeoutMs: 1000, attempts: 2 })).toEqual([
    { server: 'a', waitMs: 1000 },
    { server: 'b', waitMs: 1000 },
    { server: 'a', waitMs: 1000 },
    { server: 'b', waitMs: 1000 },
  ]);
  expect(resolverTries(['a'], { timeoutMs: 5000, attempts: 0 })).toEqual([{ server: 'a', waitMs: 5000 }]);
});

it('encodeQuery / decodeHeader', () => {
  const q = encodeQuery(0x1234, 'api.alpha.example.com.');
  expect(q.subarray(12).toString('latin1')).toBe('\x03api\x05alpha\x07example\x03com\x00\x00\x01\x00\x01');
  expect(decodeHeader(q)).toBeUndefined(); // a question, not a response
  const r = Buffer.from(q);
  r.writeUInt8(0x81, 2);
  r.writeUInt8(0x83, 3);
  r.writeUInt16BE(0, 6);
  expect(decodeHeader(r)).toEqual({ id: 0x1234, rcode: 'NXDOMAIN', answers: 0 });
  expect(() => encodeQuery(1, 'a..b')).toThrow(/bad DNS label/);
});

it.each([
  ['NOERROR', true],
  ['NXDOMAIN', true],
  ['SERVFAIL', false],
  ['REFUSED', false],
])('endsLookup(%s) = %s', (rcode, want) => expect(endsLookup(rcode)).toBe(want));

it.each<[number, number, number, number]>([
  [1000, 50, 900, 1000],
  [1000, 50, 1000, 1000],
  [1000, 50, 1001, 1050],
  [1000, 50, 1120, 1150],
])('nextDue(%s, %s, %s) = %s', (t0, every, now, want) => expect(nextDue(t0, every, now)).toBe(want));

it.each<[number | undefined, number, string]>([
  [undefined, 10_000, 'renew'],
  [9_000, 10_000, 'wait'],
  [5_000, 10_000, 'give-up'],
])('dhcpStep(%s, %s)', (pending, now, want) => expect(dhcpStep(pending, now, 5000)).toBe(want));

it.each([
  ['bound', 'ok'],
  ['renew', 'ok'],
  ['deconfig', 'lost'],
  ['nak', 'lost'],
  ['leasefail', 'lost'],
  ['zeroconf', 'other'],
])('hookOutcome(%s) = %s', (event, want) => expect(hookOutcome(event)).toBe(want));

const op = (kind: OpRecord['op'], start: number, end: number, more: Partial<OpRecord> = {}) => ({
  op: kind,
  client: 'vm',
  start,
  end,
  ok: true,
  ...more,
});

describe('longestGap', () => {
  it.each<[string, OpRecord[], number]>([
    ['steady', [op('dns', 0, 10), op('dns', 50, 60), op('dns', 100, 110), op('dns', 150, 160)], 50],
    [
      'a stall past the window: counted up to its end',
      [op('dns', 0, 10), op('dns', 50, 1060), op('dns', 100, 1070), op('dns', 1100, 1110)],
      190,
    ],
    ['failures do not count', [op('dns', 0, 10), op('dns', 50, 60, { ok: false }), op('dns', 100, 110)], 100],
    ['nothing after the window: until its end', [op('dns', 0, 10)], 190],
  ])('%s', (_what, ops, want) => expect(longestGap(ops, 20, 200)).toBe(want));
});

describe('doubleAllocations', () => {
  const d = (client: string, end: number, ip?: string, lost = false) =>
    op('dhcp', end - 1, end, {
      ok: ip !== undefined,
      client,
      ...(ip ? { ip } : {}),
      ...(lost ? { lost } : {}),
    });
  it.each<[string, OpRecord[], number]>([
    ['two clients, two addresses', [d('a', 1, '.10'), d('b', 2, '.11'), d('a', 3, '.10')], 0],
    ['the same address to both', [d('a', 1, '.10'), d('b', 2, '.10')], 1],
    [
      'after the first lost it, no double',
      [d('a', 1, '.10'), d('a', 2, undefined, true), d('b', 3, '.10')],
      0,
    ],
    ['one client renewing its own address', [d('a', 1, '.10'), d('a', 2, '.10')], 0],
  ])('%s', (_what, ops, want) => expect(doubleAllocations(ops)).toBe(want));
});

it('report: one row per event and kind; ops counted by start in the window', () => {
  const ops = [
    op('dns', 0, 10),
    op('dns', 100, 120, { ok: false }),
    op('dns', 150, 900),
    op('dns', 1000, 1010),
    op('dhcp', 100, 110, { ip: '.10' }),
    op('dhcp', 200, 210, { ok: false, lost: true }),
  ];
  const rows = report(ops, [{ component: 'dns', event: 'SIGKILL vlan100-dns', start: 50, end: 500 }]);
  expect(rows).toEqual([
    {
      component: 'dns',
      event: 'SIGKILL vlan100-dns',
      op: 'dns',
      ops: 2,
      failed: 1,
      longestGapMs: 490,
      doubleAllocations: 0,
      leasesLost: 0,
    },
    {
      component: 'dns',
      event: 'SIGKILL vlan100-dns',
      op: 'dhcp',
      ops: 2,
      failed: 1,
      longestGapMs: 390,
      doubleAllocations: 0,
      leasesLost: 1,
    },
  ]);
  expect(formatReport(rows).split('\n')[1]).toMatch(/^dns +SIGKILL vlan100-dns +dns +2 +1 +0\.49 s +- +-$/);
});

it('parseProbeOutput: the first lease and every operation; other lines ignored', () => {
  const text = [
    'udhcpc: started',
    '{"lease":{"ip":"198.51.100.100","dns":["a","b"],"server":"198.51.100.2"}}',
    JSON.stringify(op('tls', 1, 2)),
  ].join('\n');
  expect(parseProbeOutput(text)).toEqual({
    lease: { ip: '198.51.100.100', dns: ['a', 'b'], server: '198.51.100.2' },
    ops: [op('tls', 1, 2)],
  });
});

describe('dhcp-wire', () => {
  const mac = '02:00:00:00:00:01';
  it('encodeRenew: BOOTREQUEST, xid, ciaddr, chaddr, magic, DHCPREQUEST without requested address or server id', () => {
    const p = encodeRenew(0xdeadbeef, mac, '198.51.100.101');
    expect([p[0], p[1], p[2]]).toEqual([1, 1, 6]);
    expect(p.readUInt32BE(4)).toBe(0xdeadbeef);
    expect([...p.subarray(12, 16)]).toEqual([198, 51, 100, 101]);
    expect([...p.subarray(16, 20)]).toEqual([0, 0, 0, 0]); // yiaddr
    expect(p.subarray(28, 34).toString('hex')).toBe('020000000001');
    expect(p.readUInt32BE(236)).toBe(0x63825363);
    expect([...p.subarray(240)]).toEqual([53, 1, 3, 61, 7, 1, 2, 0, 0, 0, 0, 1, 55, 2, 1, 6, 255]);
  });
  const reply = (type: number, yiaddr: string) => {
    const p = encodeRenew(7, mac, '0.0.0.0');
    p.writeUInt8(2, 0);
    Buffer.from(yiaddr.split('.').map(Number)).copy(p, 16);
    p.writeUInt8(type, 242);
    return p;
  };
  it('decodeReply', () => {
    expect(decodeReply(reply(5, '198.51.100.101'))).toEqual({ xid: 7, type: 5, yiaddr: '198.51.100.101' });
    expect(decodeReply(encodeRenew(7, mac, '198.51.100.101'))).toBeUndefined(); // a request
    expect(decodeReply(Buffer.alloc(10))).toBeUndefined();
  });
  it('decodeReply: the server identifier (option 54), which a client renews with after rebinding', () => {
    const ack = reply(5, '198.51.100.101');
    const withId = Buffer.concat([ack.subarray(0, -1), Buffer.from([54, 4, 198, 51, 100, 6, 255])]);
    expect(decodeReply(withId)).toEqual({
      xid: 7,
      type: 5,
      yiaddr: '198.51.100.101',
      serverId: '198.51.100.6',
    });
  });
  it.each<[number, string, string]>([
    [5, '198.51.100.101', 'ok'],
    [5, '198.51.100.150', 'lost'],
    [6, '0.0.0.0', 'lost'],
    [2, '198.51.100.101', 'other'],
  ])('renewOutcome(%s, %s)', (type, yiaddr, want) =>
    expect(renewOutcome(type, yiaddr, '198.51.100.101')).toBe(want),
  );
});
