// Test helpers: a served network and request builders (shared by unit tests, the fuzz script and benches).
import type { DhcpConfig } from '@oooi/api';
import { BOOTREQUEST, FLAG_BROADCAST, MessageType, Opt } from '../codec/packet';
import type { DhcpPacket, MessageTypeName } from '../codec/packet';
import { ipBytes } from '../codec/option-values';

export const ip = (s: string): number => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);

export const testConfig = (over: Partial<DhcpConfig> = {}): DhcpConfig => ({
  version: 1,
  network: { cidr: '198.51.100.0/24', gateway: '198.51.100.1', serverIP: '198.51.100.2' },
  pool: { start: '198.51.100.100', end: '198.51.100.109' },
  leaseTimeSeconds: 3600,
  declineQuarantineSeconds: 600,
  options: {
    dnsServers: ['198.51.100.53', '198.51.100.54'],
    domainName: 'vlan.test',
    searchList: ['vlan.test', 'apps.vlan.test'],
    mtu: 1400,
    classlessRoutes: [{ destination: '10.0.0.0/8', router: '198.51.100.1' }],
    ntpServers: ['198.51.100.123'],
  },
  ...over,
});

export interface RequestSpec {
  readonly type: MessageTypeName;
  readonly mac?: number;
  readonly xid?: number;
  readonly ciaddr?: number;
  readonly giaddr?: number;
  readonly requested?: number;
  readonly serverId?: number;
  readonly clientId?: Uint8Array;
  readonly broadcast?: boolean;
  readonly extra?: readonly (readonly [number, Uint8Array])[];
}

/** A request from the client with MAC 02:00:00:00:HH:LL (HHLL = mac). */
export function request(s: RequestSpec): DhcpPacket {
  const m = s.mac ?? 1;
  const options = new Map<number, Uint8Array>([[Opt.MESSAGE_TYPE, Uint8Array.of(MessageType[s.type])]]);
  if (s.requested !== undefined) options.set(Opt.REQUESTED_IP, ipBytes([s.requested]));
  if (s.serverId !== undefined) options.set(Opt.SERVER_ID, ipBytes([s.serverId]));
  if (s.clientId !== undefined) options.set(Opt.CLIENT_ID, s.clientId);
  options.set(Opt.PARAMETER_LIST, Uint8Array.of(1, 3, 6, 15, 26, 28, 42, 119, 121));
  for (const [c, v] of s.extra ?? []) options.set(c, v);
  const chaddr = new Uint8Array(16);
  chaddr.set([2, 0, 0, 0, (m >> 8) & 255, m & 255]);
  return {
    op: BOOTREQUEST,
    htype: 1,
    hlen: 6,
    hops: s.giaddr !== undefined ? 1 : 0,
    xid: s.xid ?? 0x1000 + m,
    secs: 0,
    flags: s.broadcast === false ? 0 : FLAG_BROADCAST,
    ciaddr: s.ciaddr ?? 0,
    yiaddr: 0,
    siaddr: 0,
    giaddr: s.giaddr ?? 0,
    chaddr,
    sname: new Uint8Array(64),
    file: new Uint8Array(128),
    options,
  };
}
