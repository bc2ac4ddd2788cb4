// One server of a hot-standby pair (the I/O shell around state.ts): listens for its partner on serverIP, keeps a
// connection to it with a heartbeat, feeds what it learns to nextState(), syncs when that says so, replicates lease
// changes before the server replies, and takes the partner's updates into the lease store.
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { formatIPv4 } from '@oooi/api';
import type { DhcpHighAvailability } from '@oooi/api';
import type { Logger } from 'pino';
import type { Lease, LeaseTable } from '../allocate/lease-table';
import type { DhcpPacket } from '../codec/packet';
import type { Arrival } from '../decide/types';
import { macOf, messageType } from '../codec/packet';
import type { HaMetrics } from '../metrics';
import { acceptPartner, PartnerLink } from './link';
import { mergePartnerLeases } from './merge';
import { mustReplicate, nextState, serves } from './state';
import type { HaRole, HaState } from './state';
import { PartnerProbe } from './partner-probe';
import { countsAsEvidence, probeUnanswered, UnackedClients } from './unacked';
import { MAX_LEASES_PER_MESSAGE } from './wire';
import type { RefuseReason, Request, Response } from './wire';

const other = (r: HaRole): HaRole => (r === 'primary' ? 'standby' : 'primary');

/** Connections accepted at once at most. */
const MAX_INCOMING = 8;

/** What the pair needs of the server's leases. */
export interface HaLeaseSide {
  /** Applies the partner's records here; resolves once they are durable. */
  take(leases: readonly Lease[]): Promise<void>;
  /** Durable records from address AFTER on, in address order, at most LIMIT; NEXT continues. */
  dump(after: number, limit: number): { leases: Lease[]; next: number | null };
  table(): LeaseTable;
  /** Whether IP lies in the served network (a partner's record outside it is refused). */
  onNetwork(ip: number): boolean;
}

export interface HaPairOptions {
  readonly config: DhcpHighAvailability;
  readonly serverIP: string;
  readonly secret: Buffer;
  readonly leases: HaLeaseSide;
  readonly log: Logger;
  readonly metrics: HaMetrics;
  readonly now: () => number;
  /** Called on each state change (status reporting). */
  readonly onChange?: () => void;
  /**
   * The standby's probe of a silent primary on the client network (ha/partner-probe.ts): on by default, `false` turns
   * it off, ports for tests.
   */
  readonly probe?: false | { readonly clientPort?: number; readonly serverPort?: number };
}

export interface HaStatus {
  readonly role: HaRole;
  readonly state: HaState;
  readonly partner: string;
  readonly partnerState: HaState | undefined;
  readonly since: number;
}

export class HaPair {
  private current: HaState = 'waiting';
  private since: number;
  private partnerState: HaState | undefined;
  /** The partner's state when it was last reachable (undefined: never heard since the start). */
  private lastHeard: HaState | undefined;
  private unreachableSince: number;
  /** Re-evaluates the moment max-response-delay has passed since the partner was lost (not at the next tick). */
  private deadline: NodeJS.Timeout | undefined;
  private link: PartnerLink | undefined;
  private connecting = false;
  private listener: Server | undefined;
  private readonly accepted = new Set<Socket>();
  private timer: NodeJS.Timeout | undefined;
  private readonly unacked: UnackedClients;
  private readonly touched = new Set<number>();
  private syncDone = false;
  private partnerLeft = false;
  private stopped = false;
  private readonly heartbeatMs: number;
  private readonly maxResponseDelayMs: number;
  private readonly maxAckDelayMs: number;
  private probe: PartnerProbe | undefined;
  private probeCounted = false;

  constructor(private readonly o: HaPairOptions) {
    this.heartbeatMs = o.config.heartbeatMs ?? 1000;
    this.maxResponseDelayMs = o.config.maxResponseDelayMs ?? 3000;
    this.maxAckDelayMs = o.config.maxAckDelayMs ?? 2000;
    this.unacked = new UnackedClients(this.maxAckDelayMs);
    if (o.config.role === 'standby' && o.probe !== false)
      this.probe = new PartnerProbe({
        serverIP: o.serverIP,
        partner: o.config.partner.address,
        log: o.log,
        now: o.now,
        ...(o.probe ?? {}),
      });
    this.since = o.now();
    this.unreachableSince = o.now();
    o.metrics.state.set({ state: this.current }, 1);
  }

  get role(): HaRole {
    return this.o.config.role;
  }

  get state(): HaState {
    return this.current;
  }

  status(): HaStatus {
    const p = this.o.config.partner;
    return {
      role: this.role,
      state: this.current,
      partner: `${p.address}:${p.port}`,
      partnerState: this.partnerState,
      since: this.since,
    };
  }

  async start(): Promise<void> {
    const server = createServer((socket) => {
      // the partner needs one connection (two while it reconnects); strangers may not hold more
      if (this.accepted.size >= MAX_INCOMING) {
        this.refused('too_many', socket.remoteAddress);
        return socket.destroy();
      }
      this.accepted.add(socket);
      socket.on('close', () => this.accepted.delete(socket));
      acceptPartner(socket, {
        secret: this.o.secret,
        role: this.role,
        handle: (r) => this.handle(r),
        onRefused: (r) => this.refused(r, socket.remoteAddress),
      });
    });
    server.on('error', (err) => this.o.log.error({ err }, 'Pair listener error'));
    const port = this.o.config.listenPort ?? this.o.config.partner.port;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.o.serverIP, port }, () => resolve());
    });
    this.listener = server;
    if (this.probe !== undefined && !(await this.probe.open())) this.probe = undefined;
    this.o.log.info(
      { role: this.role, listen: `${this.o.serverIP}:${port}`, partner: this.status().partner },
      'Pair listening',
    );
    this.timer = setInterval(() => this.tick(), this.heartbeatMs);
    this.tick();
  }

  /** Whether the server answers clients now. */
  serving(): boolean {
    return serves(this.role, this.current);
  }

  /** A request this server does not answer: counts toward the unacked-clients rule while the partner is away. */
  observe(p: DhcpPacket, arrival: Arrival): void {
    const t = messageType(p);
    // what both servers receive: a broadcast, or a relay's copy; a renewal unicast to this server says nothing
    // about the partner (the client chose this one)
    if ((t !== 1 && t !== 3) || (arrival !== 'broadcast' && p.giaddr === 0)) return;
    if (this.partnerState !== undefined) return;
    const window = {
      sinceMs: this.o.now() - this.unreachableSince,
      partnerServed: this.partnerServed(),
      maxResponseDelayMs: this.maxResponseDelayMs,
      heartbeatMs: this.heartbeatMs,
    };
    if (!countsAsEvidence(t, window)) return;
    const s = { mac: macOf(p), xid: p.xid, type: t };
    if (this.unacked.observe(s, this.o.now()))
      this.o.log.info(
        { mac: s.mac, xid: s.xid, type: t === 1 ? 'DISCOVER' : 'REQUEST' },
        'Client unanswered while the partner is away',
      );
    this.o.metrics.unackedClients.set(this.unacked.count());
    this.evaluate();
  }

  /** Makes LEASES durable at the partner when the state asks for it; rejects when the partner did not. */
  async replicate(leases: readonly Lease[]): Promise<void> {
    if (!mustReplicate(this.current, this.partnerState !== undefined)) return;
    const link = this.link;
    const started = performance.now();
    try {
      if (link === undefined || link.closed) throw new Error('partner unreachable');
      for (let i = 0; i < leases.length; i += MAX_LEASES_PER_MESSAGE) {
        const r = await link.request(
          { t: 'leases', leases: leases.slice(i, i + MAX_LEASES_PER_MESSAGE) },
          this.maxResponseDelayMs,
        );
        if (r.t !== 'leases-ok') throw new Error(`partner answered ${r.t}`);
      }
    } catch (err) {
      this.o.metrics.replicationFailures.inc();
      throw err;
    }
    this.o.metrics.replicationSeconds.observe((performance.now() - started) / 1000);
  }

  /**
   * Stops; with FAREWELL (a clean shutdown, after the DHCP sockets were closed) the partner is told first, so that it
   * serves at once instead of after max-response-delay and unanswered clients.
   */
  async stop(farewell = true): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.probe?.close();
    clearTimeout(this.deadline);
    const link = this.link;
    if (farewell && link !== undefined && !link.closed)
      await link.request({ t: 'leaving' }, this.heartbeatMs).catch(() => undefined);
    link?.close(new Error('stopping'));
    for (const s of this.accepted) s.destroy();
    await new Promise<void>((r) => (this.listener !== undefined ? this.listener.close(() => r()) : r()));
  }

  private tick(): void {
    if (this.stopped) return;
    if (this.probing()) this.probe!.send();
    const link = this.link;
    if (link === undefined || link.closed) {
      this.connect();
    } else {
      link.request({ t: 'heartbeat', state: this.current }, this.heartbeatMs * 2).then(
        (r) => {
          this.o.metrics.heartbeats.inc({ result: 'ok' });
          if (r.t === 'heartbeat-ok') this.heard(r.state);
        },
        () => this.o.metrics.heartbeats.inc({ result: 'failed' }),
      );
    }
    this.evaluate();
  }

  private connect(): void {
    if (this.connecting || this.stopped) return;
    this.connecting = true;
    const p = this.o.config.partner;
    PartnerLink.open({
      host: p.address,
      port: p.port,
      secret: this.o.secret,
      role: this.role,
      onRefused: (r) => this.refused(r, p.address),
    }).then(
      (link) => {
        this.connecting = false;
        if (this.stopped) return link.close(new Error('stopping'));
        this.link = link;
        this.partnerLeft = false;
        link.onClose(() => this.lost(link));
        this.tick();
      },
      () => {
        this.connecting = false;
      },
    );
  }

  private heard(state: HaState): void {
    if (this.partnerState === undefined) {
      this.o.log.info({ partner: this.status().partner, partnerState: state }, 'Partner reachable');
      this.o.metrics.partnerReachable.set(1);
    }
    this.partnerState = state;
    this.unacked.reset();
    this.probe?.reset();
    this.probeCounted = false;
    this.o.metrics.unackedClients.set(0);
    this.evaluate();
  }

  private lost(link: PartnerLink): void {
    if (this.link === link) this.link = undefined;
    if (this.partnerState === undefined) return;
    this.lastHeard = this.partnerState;
    this.partnerState = undefined;
    this.unreachableSince = this.o.now();
    clearTimeout(this.deadline);
    // unref'd: a stopping server's own link closes too, and must not be held up by this timer
    if (!this.stopped)
      this.deadline = setTimeout(() => {
        if (!this.stopped) this.evaluate();
      }, this.maxResponseDelayMs + 1).unref();
    this.o.metrics.partnerReachable.set(0);
    this.o.log.warn({ partner: this.status().partner, state: this.current }, 'Partner unreachable');
    if (this.probing()) this.probe!.send();
    this.evaluate();
  }

  /** Whether the standby asks the silent primary on the client network now (ha/partner-probe.ts). */
  private probing(): boolean {
    return (
      this.probe !== undefined && this.partnerState === undefined && this.partnerServed() && !this.serving()
    );
  }

  /** Whether the partner, when last heard, was in a state that answers clients. */
  private partnerServed(): boolean {
    return this.lastHeard !== undefined && serves(other(this.role), this.lastHeard);
  }

  /** Unanswered clients: the ones seen retrying, and this server's own probe when it went unanswered. */
  private unansweredClients(): number {
    const probed =
      this.partnerState === undefined &&
      probeUnanswered(this.probe?.current(), this.o.now(), {
        partnerServed: this.partnerServed(),
        maxAckDelayMs: this.maxAckDelayMs,
      });
    if (probed && !this.probeCounted)
      this.o.log.info(
        { partner: this.status().partner, afterMs: this.o.now() - this.unreachableSince },
        'Partner unanswered on the client network: counted as an unanswered client',
      );
    this.probeCounted = probed;
    const n = this.unacked.count() + (probed ? 1 : 0);
    this.o.metrics.unackedClients.set(n);
    return n;
  }

  private evaluate(): void {
    const next = nextState({
      role: this.role,
      state: this.current,
      partner: this.partnerState,
      unreachableMs: this.partnerState === undefined ? this.o.now() - this.unreachableSince : 0,
      unackedClients: this.unansweredClients(),
      syncDone: this.syncDone,
      partnerLeft: this.partnerLeft,
      limits: {
        maxResponseDelayMs: this.maxResponseDelayMs,
        maxUnackedClients: this.o.config.maxUnackedClients ?? 0,
      },
    });
    if (next === this.current) return;
    const from = this.current;
    this.current = next;
    this.since = this.o.now();
    this.o.metrics.state.set({ state: from }, 0);
    this.o.metrics.state.set({ state: next }, 1);
    this.o.log.info(
      { from, to: next, partnerState: this.partnerState, unackedClients: this.unansweredClients() },
      'Pair state changed',
    );
    this.syncDone = false;
    if (next === 'syncing' && this.link !== undefined) void this.sync(this.link);
    this.o.onChange?.();
  }

  /** Catch-up: every partner record here and durable, then what only this server has to the partner. */
  private async sync(link: PartnerLink): Promise<void> {
    this.touched.clear();
    try {
      const all: Lease[] = [];
      for (let after: number | null = 0; after !== null;) {
        const r: Response = await link.request({ t: 'dump', after }, this.maxResponseDelayMs);
        if (r.t !== 'dump-ok') throw new Error(`partner answered ${r.t}`);
        this.checkOnNetwork(r.leases);
        all.push(...r.leases);
        after = r.next;
      }
      const m = mergePartnerLeases(this.o.leases.table(), all, this.touched);
      for (let i = 0; i < m.take.length; i += MAX_LEASES_PER_MESSAGE)
        await this.o.leases.take(m.take.slice(i, i + MAX_LEASES_PER_MESSAGE));
      this.o.metrics.leasesReceived.inc(m.take.length);
      for (let i = 0; i < m.give.length; i += MAX_LEASES_PER_MESSAGE) {
        const r = await link.request(
          { t: 'leases', leases: m.give.slice(i, i + MAX_LEASES_PER_MESSAGE) },
          this.maxResponseDelayMs,
        );
        if (r.t !== 'leases-ok') throw new Error(`partner answered ${r.t}`);
      }
      if (this.current !== 'syncing') return;
      this.o.log.info(
        { partnerLeases: all.length, taken: m.take.length, given: m.give.length },
        'Pair synced',
      );
      this.syncDone = true;
      this.evaluate();
    } catch (err) {
      this.o.log.warn({ err }, 'Pair sync failed; the link is reset');
      link.close(err as Error);
    }
  }

  private checkOnNetwork(leases: readonly Lease[]): void {
    for (const l of leases)
      if (!this.o.leases.onNetwork(l.ip))
        throw new Error(`partner record ${formatIPv4(l.ip)} is off the network`);
  }

  /** The partner's requests. */
  private async handle(r: Request): Promise<Response> {
    switch (r.t) {
      case 'heartbeat':
        return { t: 'heartbeat-ok', id: r.id, state: this.current };
      case 'leases': {
        this.checkOnNetwork(r.leases);
        if (this.current === 'syncing') for (const l of r.leases) this.touched.add(l.ip);
        await this.o.leases.take(r.leases);
        this.o.metrics.leasesReceived.inc(r.leases.length);
        return { t: 'leases-ok', id: r.id };
      }
      case 'leaving':
        this.partnerLeft = true;
        this.o.log.info(
          { partner: this.status().partner },
          'Partner stopping: it serves no client from now on',
        );
        return { t: 'ok', id: r.id };
      case 'dump': {
        const d = this.o.leases.dump(r.after, 2000);
        return { t: 'dump-ok', id: r.id, leases: d.leases, next: d.next };
      }
    }
  }

  private refused(reason: RefuseReason, from: string | undefined): void {
    this.o.metrics.refused.inc({ reason });
    this.o.log.warn({ reason, from }, 'Pair message refused; connection closed');
  }
}
