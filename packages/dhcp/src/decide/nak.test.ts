// Option 56 (RFC 2132 §9.9) is NVT ASCII: every message a NAK can carry reaches the wire as printable ASCII, byte
// for byte the text the server logs.
import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { Opt } from '../codec/packet';
import { readText, textBytes } from '../codec/option-values';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { applyChange } from './apply';
import { decide } from './decide';
import { NAK_MESSAGES } from './request';

const printable = (b: Uint8Array) => [...b].every((c) => c >= 0x20 && c <= 0x7e);

test('textBytes: printable ASCII as is; control characters and anything beyond ASCII become one "?" each', () => {
  expect([...textBytes('vm-7.vlan.test')]).toEqual([...Buffer.from('vm-7.vlan.test', 'ascii')]);
  expect(readText(textBytes('client’s'))).toBe('client?s');
  expect(readText(textBytes('a\u0000b\u0019c\u007fd\ne'))).toBe('a?b?c?d?e');
  expect(readText(textBytes('é😀'))).toBe('??');
  for (let c = 0; c < 0x3000; c++) expect(printable(textBytes(String.fromCharCode(c)))).toBe(true);
});

test.each(Object.entries(NAK_MESSAGES))('NAK message %s is printable ASCII', (_, text) => {
  expect(printable(Buffer.from(text, 'utf8'))).toBe(true);
  expect(readText(textBytes(text))).toBe(text);
});

test('every NAK the server sends carries one of those messages, in printable ASCII', () => {
  const net = compileNetwork(
    testConfig({ reservations: [{ mac: '02:00:00:00:00:07', ip: '198.51.100.50' }] }),
  );
  const table = new LeaseTable();
  const SERVER = ip('198.51.100.2');
  const send = (s: RequestSpec, sourceIp = 0) => {
    const arrival = sourceIp === 0 ? 'broadcast' : 'unicast';
    const d = decide({
      packet: request(s),
      net,
      table,
      now: 1_000_000,
      sourceIp,
      arrival,
      offerHoldMs: 30_000,
    });
    if (d.kind !== 'drop') for (const c of d.changes) applyChange(table, c);
    return d;
  };
  const dora = (mac: number) => {
    const o = send({ type: 'DISCOVER', mac });
    const yiaddr = o.kind === 'reply' ? o.reply.yiaddr : 0;
    send({ type: 'REQUEST', mac, requested: yiaddr, serverId: SERVER });
    return yiaddr;
  };
  const a = dora(1);
  const b = dora(2);
  const naks = [
    send({ type: 'REQUEST', mac: 3, requested: ip('198.51.100.105'), serverId: SERVER }),
    send({ type: 'REQUEST', mac: 3, requested: ip('203.0.113.5') }),
    send({ type: 'REQUEST', mac: 7, requested: a }),
    send({ type: 'REQUEST', mac: 1, requested: b }),
    send({ type: 'REQUEST', mac: 4, requested: a }),
    send({ type: 'REQUEST', mac: 1, ciaddr: b }, b),
  ];
  const seen = new Set<string>();
  for (const d of naks) {
    expect(d.kind === 'reply' && d.type).toBe('nak');
    const bytes = d.kind === 'reply' ? d.reply.options.get(Opt.MESSAGE) : undefined;
    expect(bytes).toBeDefined();
    expect(printable(bytes!)).toBe(true);
    expect(d.kind === 'reply' && readText(bytes)).toBe(d.kind === 'reply' && d.why);
    seen.add(readText(bytes)!);
  }
  expect([...seen].sort()).toEqual(Object.values(NAK_MESSAGES).sort());
});
