// The pure part of the probe's DNS client: the order in which it asks the resolvers a DHCP lease handed out, with
// resolv.conf's semantics as glibc applies them, and the DNS wire format of one A question and its answer's header.
//
// glibc (res_send): each lookup starts with the first `nameserver`, waits `options timeout:` for an answer, then asks
// the next one; after the last it starts over, `options attempts:` rounds in all (with two servers the wait per
// server is the timeout itself). A SERVFAIL or REFUSED answer moves on to the next server as a timeout does; any
// other answer (NOERROR, NXDOMAIN) ends the lookup.

export interface ResolverOptions {
  /** `options timeout:` in ms (glibc's default 5000). */
  readonly timeoutMs: number;
  /** `options attempts:` (glibc's default 2). */
  readonly attempts: number;
}

/** The probe's settings: resolv.conf `options timeout:1 attempts:2` (a VM tuned for HA; glibc's default is 5 s). */
export const PROBE_RESOLVER: ResolverOptions = { timeoutMs: 1000, attempts: 2 };

/** Every try of one lookup, in order: the server and how long to wait for it. */
export function resolverTries(
  servers: readonly string[],
  o: ResolverOptions,
): { readonly server: string; readonly waitMs: number }[] {
  const tries = [];
  for (let round = 0; round < Math.max(1, o.attempts); round++)
    for (const server of servers) tries.push({ server, waitMs: o.timeoutMs });
  return tries;
}

/** An A question for NAME with ID, recursion desired. */
export function encodeQuery(id: number, name: string): Buffer {
  const labels = name
    .replace(/\.$/, '')
    .split('.')
    .map((l) => {
      const b = Buffer.from(l, 'ascii');
      if (b.length === 0 || b.length > 63) throw new Error(`bad DNS label in ${JSON.stringify(name)}`);
      return Buffer.concat([Buffer.from([b.length]), b]);
    });
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id & 0xffff, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4); // QDCOUNT
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 1, 0, 1])]); // root, A, IN
}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

/** The id, rcode name and answer count of a response; undefined when it is not one. */
export function decodeHeader(
  msg: Buffer,
): { readonly id: number; readonly rcode: string; readonly answers: number } | undefined {
  if (msg.length < 12 || (msg.readUInt8(2) & 0x80) === 0) return undefined;
  const code = msg.readUInt8(3) & 0x0f;
  return { id: msg.readUInt16BE(0), rcode: RCODES[code] ?? `RCODE${code}`, answers: msg.readUInt16BE(6) };
}

/** Whether an answer with RCODE ends the lookup (glibc moves on after SERVFAIL, REFUSED and the like). */
export function endsLookup(rcode: string): boolean {
  return rcode === 'NOERROR' || rcode === 'NXDOMAIN';
}
