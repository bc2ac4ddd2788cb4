// The shell of allocate/recovery.ts: the recovery window the lease directory's mark opened, the ARP probes of
// offered addresses during it (one at a time per address, a free answer reused for a few seconds, so a
// retransmitted DISCOVER does not probe again), and the holds of the addresses found in use.
import { formatIPv4 } from '@oooi/api';
import type { Logger } from 'pino';
import { offerNeedsProbe, recovering, recoveryOf } from '../allocate/recovery';
import type { ProbeHold, Recovery, RecoveryMark } from '../allocate/recovery';
import { settleRecoveryMark } from '../store/recovery-mark';
import { fixedAddressOf } from '../allocate/allocator';
import { clientOf } from '../decide/client';
import type { Decision, DecideInput } from '../decide/types';
import type { AddressProber, ProbeResult } from './arp-probe';
import type { RecoveryMetrics } from '../metrics';

/** A free answer stands this long (a client's DISCOVER retransmissions come within seconds). */
const FREE_FOR_MS = 5_000;

export interface RecoveryProbesOptions {
  /** Undefined: probing is off (--probe-timeout-ms 0); the window is still reported. */
  readonly prober: AddressProber | undefined;
  readonly log: Logger;
  readonly now: () => number;
  /** The served lease time (seconds), which sets the window's length. */
  readonly leaseSecs: () => number;
}

export class RecoveryProbes {
  private mark: RecoveryMark | undefined;
  private readonly held = new Map<number, ProbeHold>();
  private readonly inflight = new Map<number, Promise<ProbeResult>>();
  private readonly freeAt = new Map<number, number>();
  private failureLogged = false;
  private endLogged = false;
  private metrics: RecoveryMetrics | undefined;

  constructor(private readonly o: RecoveryProbesOptions) {}

  /** Starts from the mark of the lease directory DIR, as the store's open found it (store/recovery-mark.ts). */
  async begin(
    dir: string,
    opened: { readonly isNew: boolean; readonly damage: readonly unknown[] },
    metrics: RecoveryMetrics,
  ): Promise<void> {
    this.metrics = metrics;
    this.mark = await settleRecoveryMark(
      dir,
      { isNew: opened.isNew, damaged: opened.damage.length > 0 },
      this.o.now(),
      (err) => this.o.log.error({ err, dir }, 'Recovery mark not written; it holds until a restart'),
    );
    const r = this.window();
    if (r === undefined || !recovering(r, this.o.now())) return;
    this.o.log.warn(
      {
        reason: r.reason,
        since: new Date(r.since).toISOString(),
        until: new Date(r.until).toISOString(),
        probing: this.o.prober !== undefined,
      },
      'Lease store new or damaged; addresses it has no record of are probed before they are offered',
    );
  }

  /** The window under the lease time served now; undefined without a mark. */
  window(): Recovery | undefined {
    return recoveryOf(this.mark, this.o.leaseSecs());
  }

  /** Whether the window is open now; its end is logged once, and the holds go with it. */
  active(): boolean {
    const r = this.window();
    if (recovering(r, this.o.now())) return true;
    if (r !== undefined && !this.endLogged) {
      this.endLogged = true;
      this.held.clear();
      this.o.log.info(
        { reason: r.reason, until: new Date(r.until).toISOString() },
        'Lease store recovery ended',
      );
    }
    return false;
  }

  /** The holds decide must respect (undefined when there are none). */
  holds(): ReadonlyMap<number, ProbeHold> | undefined {
    return this.held.size > 0 ? this.held : undefined;
  }

  heldCount(): number {
    return this.active() ? this.held.size : 0;
  }

  /** Whether decision D (taken on input I, before its changes were applied) is an offer that waits for a probe. */
  wants(i: DecideInput, d: Decision): d is Extract<Decision, { kind: 'reply' }> {
    if (this.o.prober === undefined || d.kind !== 'reply' || d.type !== 'offer' || !this.active())
      return false;
    const ip = d.reply.yiaddr;
    return offerNeedsProbe({
      recovery: this.window(),
      now: i.now,
      yiaddr: ip,
      record: i.table.get(ip),
      giaddr: i.packet.giaddr,
      fixed: fixedAddressOf(i, clientOf(i.packet)),
    });
  }

  /** Whether IP may be offered to the client with MAC: nobody answered for it, or that client did. */
  async mayOffer(ip: number, mac: string): Promise<boolean> {
    const at = this.freeAt.get(ip);
    if (at !== undefined && this.o.now() - at < FREE_FOR_MS) return true;
    let p = this.inflight.get(ip);
    if (p === undefined) {
      p = this.o.prober!.probe(ip).finally(() => this.inflight.delete(ip));
      this.inflight.set(ip, p);
      void p.then((r) => this.count(ip, r));
    }
    const r = await p;
    if (r.kind !== 'in_use' || r.mac === mac) return true;
    const until = this.window()?.until ?? this.o.now();
    if (!this.held.has(ip)) {
      this.held.set(ip, { mac: r.mac, until });
      this.o.log.warn(
        { ip: formatIPv4(ip), holder: r.mac, mac, until: new Date(until).toISOString() },
        'Address in use (answered ARP); not offered, kept for the host that answered',
      );
    }
    return false;
  }

  close(): Promise<void> {
    return this.o.prober?.close() ?? Promise.resolve();
  }

  private count(ip: number, r: ProbeResult): void {
    this.metrics?.probes.inc({ result: r.kind });
    if (r.kind === 'free') this.freeAt.set(ip, this.o.now());
    else this.freeAt.delete(ip);
    if (r.kind === 'failed' && !this.failureLogged) {
      this.failureLogged = true;
      this.o.log.warn({ ip: formatIPv4(ip), why: r.why }, 'Address probe failed; offering without it');
    }
  }
}
