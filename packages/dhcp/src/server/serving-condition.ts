// The condition oooi-dhcp owns on its DHCPServer (`Serving`; the controller owns Ready and Available). Pure: what
// the server knows in, the condition out. Counts are not in the message (they live in status fields), so the
// message changes only when the state does.
import type { OwnedCondition } from '@oooi/kube';
import type { Conflict } from '../kubevirt/aggregate/kubevirt-index';

export const SERVING = 'Serving';

export interface ServingFacts {
  readonly listening: boolean;
  /** `network.cidr` served. */
  readonly cidr: string;
  readonly kubevirt?: {
    readonly namespaces: readonly string[];
    readonly synced: boolean;
    readonly unknownClients: 'serve' | 'refuse';
    readonly conflicts: readonly Conflict[];
  };
}

/** At most this many conflicts are named in the message (sorted); the rest are counted. */
const MAX_NAMED = 5;

function describe(c: Conflict): string {
  const [keeper, loser] = c.objects;
  switch (c.reason) {
    case 'duplicate_ip':
      return `${loser} reports ${c.ip} which ${keeper} holds`;
    case 'duplicate_mac':
      return `${loser} reports MAC ${c.mac} which ${keeper} holds`;
    case 'outside_network':
      return `${keeper} reports ${c.ip}, outside the network`;
    case 'excluded':
      return `${keeper} reports ${c.ip}, an excluded address`;
    case 'reserved':
      return `${keeper} reports ${c.ip}, reserved for another client`;
  }
}

export function servingCondition(f: ServingFacts): OwnedCondition {
  if (!f.listening)
    return {
      type: SERVING,
      status: 'False',
      reason: 'NotListening',
      message: 'the DHCP sockets are not bound',
    };
  const kv = f.kubevirt;
  if (kv === undefined)
    return { type: SERVING, status: 'True', reason: 'Serving', message: `serving ${f.cidr}` };
  const where = `namespaces ${kv.namespaces.join(', ')}`;
  if (!kv.synced) {
    return {
      type: SERVING,
      status: 'False',
      reason: 'WaitingForVirtualMachineInstances',
      message: `the VirtualMachineInstances and VirtualMachines of ${where} are not listed yet; only clients renewing the address the lease store has for them are answered`,
    };
  }
  const base = `serving ${f.cidr} to the VMIs of ${where} (clients without a VMI: ${kv.unknownClients})`;
  if (kv.conflicts.length === 0) return { type: SERVING, status: 'True', reason: 'Serving', message: base };
  const lines = kv.conflicts.map(describe).sort();
  const more = lines.length > MAX_NAMED ? `; and ${lines.length - MAX_NAMED} more` : '';
  return {
    type: SERVING,
    status: 'True',
    reason: 'VmiConflicts',
    message: `${base}; ${lines.length} VMI conflict(s): ${lines.slice(0, MAX_NAMED).join('; ')}${more}`,
  };
}
