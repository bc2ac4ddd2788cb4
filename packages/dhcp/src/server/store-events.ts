// What the server does when the lease store reports: commit timings into the histograms, damage, write failures
// and recoveries into the metrics, a log line and a status poke (ON_CHANGE).
import { formatIPv4 } from '@oooi/api';
import type { Logger } from 'pino';
import type { OpenedStore, StoreEvents } from '../store/lease-store';
import { recordProblem } from '../store/records';
import type { LeaseChange } from '../decide/types';
import type { DhcpMetrics } from '../metrics';

export function storeEvents(metrics: DhcpMetrics, log: Logger, onChange: () => void): StoreEvents {
  const sm = metrics.store;
  return {
    onCommit: (n, s) => {
      metrics.commitSeconds.observe(s);
      metrics.commitBatch.observe(n);
    },
    onDamage: (d) => {
      sm.damagedBytes.inc(d.bytes);
      sm.damagedFrames.inc(d.records);
      log.error(
        { file: d.file, offset: d.offset, bytes: d.bytes, records: d.records, tail: d.tail },
        d.tail
          ? 'Lease file ends in damage (a torn tail); skipped, the file is kept as it is'
          : 'Lease file damaged; skipped to the next valid record, the file is kept as it is',
      );
    },
    onWriteFailed: (f, retryInMs) => {
      sm.writable.set(0);
      sm.writeFailures.inc({ code: f.code });
      log.error(
        { code: f.code, err: f.message, attempts: f.attempts, retryInMs },
        'Lease store write failed; no ACKs until a write succeeds',
      );
      onChange();
    },
    onWritable: () => {
      sm.writable.set(1);
      log.info({}, 'Lease store writes succeed again');
      onChange();
    },
    onUnstorable: (l, why) =>
      log.warn({ ip: formatIPv4(l.ip), mac: l.mac, why }, 'Lease left out of the snapshot'),
  };
}

/** The one line about the store once it is open (with how long each part of the replay took). */
export function logOpened(log: Logger, opened: OpenedStore, dir: string): void {
  const ms = (v: number) => Math.round(v * 10) / 10;
  log.info(
    {
      leases: opened.table.size,
      replayed: opened.replayed,
      dir,
      readMs: ms(opened.timings.readMs),
      decodeMs: ms(opened.timings.decodeMs),
      indexMs: ms(opened.timings.indexMs),
      uptimeMs: Math.round(performance.now()),
    },
    'Lease store opened',
  );
}

/** Why a decision's lease cannot be stored (a field past RECORD_LIMITS), or undefined. */
export function tooLargeWhy(d: { readonly changes: readonly LeaseChange[] }): string | undefined {
  for (const c of d.changes) {
    if (c.op === 'unoffer') continue;
    const why = recordProblem({ ...c.lease, state: 'bound' });
    if (why !== undefined) return why;
  }
  return undefined;
}
