// keepalived.conf of one replica of a ProxyServer in HA mode (docs/high-availability.md, "Proxy"): VRRP between the
// two Envoy pods, which hold spec.networkConfig.serverIP as a floating address. Pure; every CR string reaches the
// file through the generated-text gate (`word`), and the addresses are parsed back as IPv4 first.
//
// - VRRP version 3 with a 0.5 s advert interval: the backup declares the master dead after 3 adverts plus its skew
//   (1.5 s), inside the 3 s the issue allows. Version 3 has no authentication (RFC 5798 dropped it:
//   VRRPv2's PASS is clear text and AH is gone from keepalived); the protection is unicast with `check_unicast_src`:
//   an advert counts only from the other replica's address.
// - Unicast to the peer only (unicast_src_ip / unicast_peer): no multicast on the VLAN is needed, only IP protocol
//   112 between the two replica addresses.
// - Both replicas start BACKUP with equal priority and `nopreempt`: whoever holds the address keeps it; a replica
//   coming back never takes it back (no flap-back). On SIGTERM keepalived, when master, sends an advert with
//   priority 0, and the peer takes over at once (no wait for the master-down timer).
// - Envoy's health: the track file written by this pod's oooi-xds (`0` Envoy serves, anything else: it does not;
//   `weight 0`, so a non-zero value puts the instance in FAULT, which gives the address away). Until oooi-xds
//   writes it, keepalived creates it with 1 (not serving).
// - Gratuitous ARP on taking the address (5 at once, 5 more 1 s later) and every 30 s while master, so the VLAN's
//   switches and the VMs' ARP caches learn the new owner at once and relearn it if they forget.
// - No scripts at all (no shell in the image): `enable_script_security` with no script configured.
import { parseCidrV4, parseIPv4, type ProxyHighAvailability } from '@oooi/api';
import { word } from '../../workload/generated-text';

/** The VLAN interface in the pod: Multus names the first additional network `net1`. */
export const VLAN_INTERFACE = 'net1';
/** The directory the keepalived and oooi-xds containers share (an emptyDir). */
export const SHARED_RUN_DIR = '/run/oooi';
/** The track file oooi-xds writes: `0` when Envoy serves, `1` when it does not. */
export const TRACK_FILE = `${SHARED_RUN_DIR}/envoy-serving`;
/** Where the ConfigMap's keepalived.conf of each replica is mounted. */
export const KEEPALIVED_CONF_DIR = '/etc/keepalived';
/** The advert interval in seconds (VRRPv3 takes centiseconds). */
export const ADVERT_INTERVAL_SECONDS = 0.5;
/**
 * Both replicas' priority: equal, so neither is preferred; nopreempt keeps the address where it is. 254, the highest
 * a replica that does not own the address may have (RFC 5798: 255 is the owner's), because the backup's skew time is
 * (256 - priority) / 256 advert intervals: a backup waits that long after a priority-0 advert before it takes the
 * address, and during that wait nobody holds it (new connections' SYNs are dropped; clients retry after 1 s). At
 * 100 that was 305 ms (318 ms from the priority-0 advert to the new holder's gratuitous ARP, captured on the sandbox's
 * VLAN during a rollout); at 254 it is 4 ms, and the master-down interval after a crash 1.504 s instead of 1.805 s.
 */
export const PRIORITY = 254;

export interface KeepalivedInput {
  /** `<namespace>/<name>` of the ProxyServer (a comment, and the router_id with the replica). */
  readonly namespace: string;
  readonly name: string;
  /** spec.networkConfig.cidr (its prefix length goes on the floating address). */
  readonly cidr: string;
  /** spec.networkConfig.serverIP: the floating address. */
  readonly serverIP: string;
  readonly highAvailability: ProxyHighAvailability;
  /** This replica's index in replicaIPs (0 or 1). */
  readonly replica: 0 | 1;
}

/** The file name of replica I's config in the ConfigMap. */
export const keepalivedKey = (replica: 0 | 1): string => `keepalived-${replica}.conf`;

function address(text: string, what: string): string {
  const checked = word(text, what);
  if (parseIPv4(checked) === undefined)
    throw new Error(`${what} ${JSON.stringify(text)} is not an IPv4 address`);
  return checked;
}

/** keepalived.conf for replica INPUT.replica. Throws on an input its validation should have refused. */
export function renderKeepalivedConf(input: KeepalivedInput): string {
  const { highAvailability: ha, replica } = input;
  const own = address(ha.replicaIPs[replica] ?? '', `replicaIPs[${replica}]`);
  const peer = address(ha.replicaIPs[1 - replica] ?? '', `replicaIPs[${1 - replica}]`);
  const vip = address(input.serverIP, 'serverIP');
  const prefix = parseCidrV4(word(input.cidr, 'cidr'))?.prefixLength;
  if (prefix === undefined) throw new Error(`cidr ${JSON.stringify(input.cidr)} is not an IPv4 CIDR`);
  const vrid = ha.virtualRouterID;
  if (!Number.isInteger(vrid) || vrid < 1 || vrid > 255)
    throw new Error(`virtualRouterID ${vrid} not in 1-255`);
  const id = `${word(input.namespace, 'namespace')}/${word(input.name, 'name')}`;
  return [
    `# keepalived for ProxyServer ${id}, replica ${replica}: generated by oooi, do not edit.`,
    '# The floating address is spec.networkConfig.serverIP; docs/high-availability.md "Proxy".',
    'global_defs {',
    `    router_id ${word(input.name, 'name')}-${replica}`,
    '    enable_script_security',
    '    vrrp_version 3',
    '    vrrp_garp_master_delay 1',
    '    vrrp_garp_master_repeat 5',
    '    vrrp_garp_master_refresh 30',
    '    vrrp_garp_master_refresh_repeat 1',
    '}',
    '',
    'vrrp_track_file envoy_serving {',
    `    file "${TRACK_FILE}"`,
    '    weight 0',
    '    init_file 1',
    '}',
    '',
    'vrrp_instance proxy {',
    '    state BACKUP',
    '    nopreempt',
    `    interface ${VLAN_INTERFACE}`,
    `    virtual_router_id ${vrid}`,
    `    priority ${PRIORITY}`,
    `    advert_int ${ADVERT_INTERVAL_SECONDS}`,
    `    unicast_src_ip ${own}`,
    '    check_unicast_src',
    '    unicast_peer {',
    `        ${peer}`,
    '    }',
    '    virtual_ipaddress {',
    `        ${vip}/${prefix} dev ${VLAN_INTERFACE}`,
    '    }',
    '    track_file {',
    '        envoy_serving',
    '    }',
    '}',
    '',
  ].join('\n');
}
