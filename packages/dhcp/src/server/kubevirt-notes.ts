// What a decision in KubeVirt mode says about the VMIs: unknown clients refused or served, and a VMI-reported
// address another client's lease holds (logged once per MAC and address under the current KubeVirt view).
import { formatIPv4 } from '@oooi/api';
import type { Logger } from 'pino';
import type { LeaseTable } from '../allocate/lease-table';
import { macOf } from '../codec/packet';
import { isKnownClient } from '../decide/kubevirt-gate';
import type { Decision, DecideInput } from '../decide/types';
import type { DhcpMetrics } from '../metrics';

export interface KubevirtNotes {
  readonly metrics: DhcpMetrics['kubevirt'];
  /** `mac ip` of blocked VMI pins already logged under the current view. */
  readonly logged: Set<string>;
  readonly table: LeaseTable | undefined;
  readonly log: Logger;
}

export function noteKubevirt(n: KubevirtNotes, i: DecideInput, d: Decision): void {
  const m = n.metrics;
  if (d.kind === 'drop' && d.reason === 'no_vmi') m.unknownClients.inc({ result: 'refused' });
  else if (d.kind === 'reply' && i.kubevirt?.synced === true && !isKnownClient(i))
    m.unknownClients.inc({ result: 'served' });
  if (d.kind !== 'reply' || d.pinBlocked === undefined) return;
  const mac = macOf(i.packet);
  const key = `${mac} ${d.pinBlocked}`;
  if (n.logged.has(key)) return;
  n.logged.add(key);
  m.conflictsSeen.inc({ reason: 'lease_held' });
  const holder = n.table?.get(d.pinBlocked);
  n.log.warn(
    {
      reason: 'lease_held',
      mac,
      ip: formatIPv4(d.pinBlocked),
      vmi: i.kubevirt?.clients.get(mac)?.vmi,
      holder: holder?.mac,
    },
    'VMI-reported address is leased to another client; serving from the pool',
  );
}
