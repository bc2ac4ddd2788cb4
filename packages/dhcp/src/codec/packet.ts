// A DHCPv4 message (RFC 2131 §2, figure 1) as plain data. Addresses are uint32 (network byte order read as a
// big-endian number); options are kept as raw bytes by code, in the order they first appeared, with repeated
// instances of one code already concatenated (RFC 3396 §5). Typed views of option values live in option-values.ts.

export const BOOTREQUEST = 1;
export const BOOTREPLY = 2;
/** RFC 2131 §3: the magic cookie 99.130.83.99 that starts the options field. */
export const MAGIC_COOKIE = 0x63825363;
/** RFC 2131 §2: op..file is 236 bytes; options start after the 4-byte cookie. */
export const HEADER_BYTES = 236;
/** RFC 951 / RFC 1542 §2.1: a BOOTP message is at least 300 bytes; replies are padded up to it. */
export const MIN_MESSAGE_BYTES = 300;
/** RFC 2131 §2: the broadcast bit of `flags`. */
export const FLAG_BROADCAST = 0x8000;

/** RFC 2132 §9.6 message types (option 53). */
export const MessageType = {
  DISCOVER: 1,
  OFFER: 2,
  REQUEST: 3,
  DECLINE: 4,
  ACK: 5,
  NAK: 6,
  RELEASE: 7,
  INFORM: 8,
} as const;
export type MessageTypeName = keyof typeof MessageType;

/** Option codes this server reads or writes (RFC 2132 unless noted). */
export const Opt = {
  PAD: 0,
  SUBNET_MASK: 1,
  ROUTER: 3,
  DNS: 6,
  HOSTNAME: 12,
  DOMAIN_NAME: 15,
  MTU: 26,
  BROADCAST: 28,
  NTP: 42,
  REQUESTED_IP: 50,
  LEASE_TIME: 51,
  OVERLOAD: 52,
  MESSAGE_TYPE: 53,
  SERVER_ID: 54,
  PARAMETER_LIST: 55,
  MESSAGE: 56,
  MAX_MESSAGE_SIZE: 57,
  RENEWAL_TIME: 58,
  REBINDING_TIME: 59,
  CLIENT_ID: 61,
  /** RFC 3046 relay agent information; echoed back unchanged. */
  RELAY_AGENT_INFO: 82,
  /** RFC 3397 domain search list. */
  DOMAIN_SEARCH: 119,
  /** RFC 3442 classless static routes. */
  CLASSLESS_ROUTES: 121,
  END: 255,
} as const;

export interface DhcpPacket {
  readonly op: number;
  readonly htype: number;
  readonly hlen: number;
  readonly hops: number;
  readonly xid: number;
  readonly secs: number;
  readonly flags: number;
  readonly ciaddr: number;
  readonly yiaddr: number;
  readonly siaddr: number;
  readonly giaddr: number;
  /** 16 bytes; the first `hlen` are the hardware address. */
  readonly chaddr: Uint8Array;
  /** 64 bytes (zeroes unless used). */
  readonly sname: Uint8Array;
  /** 128 bytes (zeroes unless used). */
  readonly file: Uint8Array;
  readonly options: ReadonlyMap<number, Uint8Array>;
}

export type DecodeError =
  'too_short' | 'too_long' | 'bad_cookie' | 'bad_hlen' | 'option_overrun' | 'bad_overload';

export type DecodeResult =
  { readonly ok: true; readonly packet: DhcpPacket } | { readonly ok: false; readonly reason: DecodeError };

/** The message type (option 53) or undefined when absent or malformed. */
export function messageType(p: DhcpPacket): number | undefined {
  const v = p.options.get(Opt.MESSAGE_TYPE);
  return v !== undefined && v.length === 1 ? v[0] : undefined;
}

/** "00" … "ff", so formatting a MAC needs no per-byte toString/padStart (it runs for every packet). */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The hardware address as lower-case aa:bb:… (first hlen bytes of chaddr, at most 16). */
export function macOf(p: DhcpPacket): string {
  const n = Math.min(p.hlen, 16, p.chaddr.length);
  let s = '';
  for (let i = 0; i < n; i++) s += i === 0 ? HEX_BYTE[p.chaddr[i]!]! : `:${HEX_BYTE[p.chaddr[i]!]!}`;
  return s;
}
