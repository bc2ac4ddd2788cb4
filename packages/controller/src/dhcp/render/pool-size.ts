// The pool size the DHCPServer's status reports: the addresses of the inclusive pool that oooi-dhcp may hand
// out, i.e. minus the excluded entries, the gateway and the server address (what oooi-dhcp's own
// `oooi_dhcp_pool_size` counts, the controller renders no reservations). Arithmetic on ranges, not a walk over
// addresses, so a /8 pool costs no more than a /29.
import { parseAddressRange, parseIPv4 } from '@oooi/api';
import type { DhcpConfig, IPv4Range } from '@oooi/api';

/** RANGES sorted and merged where they overlap or touch. */
function merged(ranges: readonly IPv4Range[]): IPv4Range[] {
  const out: IPv4Range[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1)
      out[out.length - 1] = { start: last.start, end: Math.max(last.end, r.end) };
    else out.push({ ...r });
  }
  return out;
}

/** Addresses of a validated config's pool that can be handed out. */
export function poolSizeOf(config: DhcpConfig): number {
  const start = parseIPv4(config.pool.start);
  const end = parseIPv4(config.pool.end);
  if (start === undefined || end === undefined || start > end) return 0;
  const single = (text: string): IPv4Range | undefined => {
    const ip = parseIPv4(text);
    return ip !== undefined ? { start: ip, end: ip } : parseAddressRange(text);
  };
  const excluded = [config.network.gateway, config.network.serverIP, ...(config.excluded ?? [])]
    .map(single)
    .filter((r): r is IPv4Range => r !== undefined);
  let out = end - start + 1;
  for (const r of merged(excluded)) {
    const lo = Math.max(r.start, start);
    const hi = Math.min(r.end, end);
    if (lo <= hi) out -= hi - lo + 1;
  }
  return out;
}
