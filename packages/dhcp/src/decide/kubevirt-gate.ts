// Who is answered in KubeVirt mode, before the message type is looked at. Until the VMI caches have synced the
// server cannot know who is a VMI or which address a VMI reports, so it only answers a REQUEST for the very
// address the lease store has for that client (a renewal or a reboot of a client it already served; a wrong
// answer is impossible there, as an ACKed lease is never taken away) and takes RELEASE and DECLINE; everything
// else waits (the client retries). Once synced, a MAC no VMI reports on the network (and no config reservation
// names) is refused under `unknownClients: refuse`.
import { reservationOf } from '../allocate/allocator';
import { MessageType, Opt, messageType } from '../codec/packet';
import { readIp } from '../codec/option-values';
import { clientOf } from './client';
import type { Decision, DecideInput } from './types';

/** Whether the sender is a VMI on the network, or named by a config reservation. */
export function isKnownClient(i: DecideInput): boolean {
  const c = clientOf(i.packet);
  return i.kubevirt?.clients.has(c.mac) === true || reservationOf(i.net, c) !== undefined;
}

/** A drop when KubeVirt mode does not let this request through; undefined to decide it normally. */
export function kubevirtGate(i: DecideInput): Decision | undefined {
  const kv = i.kubevirt;
  if (kv === undefined) return undefined;
  // the pair partner's probe (an INFORM: no address, nothing durable) is not a VM's request
  if (i.fromPartner === true && messageType(i.packet) === MessageType.INFORM) return undefined;
  if (!kv.synced) return storeOnly(i) ? undefined : { kind: 'drop', reason: 'kubevirt_not_synced' };
  if (kv.unknownClients === 'refuse' && !isKnownClient(i)) return { kind: 'drop', reason: 'no_vmi' };
  return undefined;
}

function storeOnly(i: DecideInput): boolean {
  const p = i.packet;
  const t = messageType(p);
  if (t === MessageType.RELEASE || t === MessageType.DECLINE) return true;
  if (t !== MessageType.REQUEST || p.options.has(Opt.SERVER_ID)) return false;
  const asked = p.ciaddr !== 0 ? p.ciaddr : readIp(p.options.get(Opt.REQUESTED_IP));
  const held = i.table.forClient(clientOf(p).key);
  return held !== undefined && held.state === 'bound' && asked === held.ip;
}
