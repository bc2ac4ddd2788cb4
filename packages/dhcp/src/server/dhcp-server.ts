// The server shell: two UDP sockets, the lease table and store, the served network, and the loop that feeds
// each datagram to decide() and carries out the decision. A reply whose lease changed leaves only after the
// store has made the change durable; when the store cannot, the change is undone (the table is as if the request
// never came) and nothing is sent. A lease the store cannot hold (a field past RECORD_LIMITS) is refused before
// anything is applied.
//
// Sockets (Node's dgram cannot bind to a device or read the arrival interface): a 255.255.255.255:67 socket
// receives limited broadcasts and nothing unicast, so a unicast to the pod-network address reaches no socket; a
// socket bound to serverIP:67 receives unicasts and sends everything. A limited broadcast sent from the
// serverIP-bound socket leaves on the interface that owns serverIP, whatever the default route says.
import type { RemoteInfo, Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { waitForInterface } from './interface-wait';
import { formatIPv4 } from '@oooi/api';
import type { DhcpConfig } from '@oooi/api';
import type { Logger } from 'pino';
import { compileNetwork, poolSize } from '../allocate/served-network';
import type { ServedNetwork } from '../allocate/served-network';
import { holds } from '../allocate/lease-table';
import type { Lease, LeaseTable } from '../allocate/lease-table';
import type { KubevirtView } from '../allocate/kubevirt-view';
import { decodePacket } from '../codec/decode';
import { parseDottedQuad } from '../codec/ip-text';
import { encodePacket } from '../codec/encode';
import { macOf, messageType } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { applyChanges, undoChanges } from '../decide/apply';
import { decide } from '../decide/decide';
import type { Arrival, Decision, DecideInput } from '../decide/types';
import type { Release } from '../kubevirt/aggregate/kubevirt-index';
import { LeaseStore, LeaseStoreUnavailableError } from '../store/lease-store';
import type { StoreDamage } from '../store/lease-store';
import type { LeaseStoreFacts } from './lease-store-condition';
import { ArpProber } from './arp-probe';
import type { AddressProber } from './arp-probe';
import { RecoveryProbes } from './recovery-probes';
import { logOpened, storeEvents, tooLargeWhy } from './store-events';
import { bindSocket, target } from './udp-sockets';
import type { DhcpMetrics, DropLabel } from '../metrics';
import { dhcpMetrics, typeLabel } from '../metrics';
import type { Registry } from 'prom-client';
import type { HaPair, HaStatus } from '../ha/pair';
import { commitEverywhere, createPair, ReplicationFailedError } from './ha-leases';
import { noteKubevirt } from './kubevirt-notes';

export interface DhcpServerOptions {
  readonly config: DhcpConfig;
  readonly leaseDir: string;
  /** The interface that must be up and hold network.serverIP; start() waits for it (interface-wait.ts). */
  readonly interface?: string;
  /** How long start() waits for the interface. @default 60000 */
  readonly interfaceWaitMs?: number;
  readonly log: Logger;
  readonly registry: Registry;
  /** Server port (67) and client port (68); other values only for tests. */
  readonly serverPort?: number;
  readonly clientPort?: number;
  readonly offerHoldMs?: number;
  /**
   * SO_RCVBUF of both sockets, so that a burst arriving while the loop is busy (a GC, a batch of commits
   * resolving) waits in the kernel instead of being dropped there. The kernel caps it at net.core.rmem_max; the
   * size it granted is logged with `Serving`. @default 4 MiB
   */
  readonly recvBufferBytes?: number;
  readonly now?: () => number;
  /** Called after a lease change became durable, and when the lease store's health changes (status reporting). */
  readonly onLeaseChange?: () => void;
  /** Backoff of the lease store after a failed write. @default { initialMs: 1000, maxMs: 16000 } */
  readonly storeBackoff?: { readonly initialMs: number; readonly maxMs: number };
  /**
   * How long an ARP probe of an offered address waits while the lease store recovers (allocate/recovery.ts);
   * 0 turns probing off. @default 500
   */
  readonly probeTimeoutMs?: number;
  /** Replaces the ARP prober (tests over loopback, where no ARP runs). */
  readonly prober?: AddressProber;
  /** With the config's `ha` block: the pair's shared secret (the content of `ha.secretFile`). */
  readonly haSecret?: Buffer;
  /**
   * A standby's probe of its silent primary on the client network (ha/partner-probe.ts, on the ports above).
   * `false` only for tests of the clients' own evidence. @default true
   */
  readonly haProbe?: boolean;
}

/** Addresses probed for one DISCOVER at most; every one found in use is held, so the client's retry gets further. */
const MAX_PROBES_PER_OFFER = 4;

type Reload = { readonly ok: true } | { readonly ok: false; readonly why: string };

const durableOps = new Set(['bind', 'release', 'decline']);

export class DhcpServer {
  private net: ServedNetwork;
  private config: DhcpConfig;
  private table: LeaseTable | undefined;
  private store: LeaseStore | undefined;
  private sockets: Socket[] = [];
  private sender: Socket | undefined;
  private readonly metrics: DhcpMetrics;
  private readonly log: Logger;
  private readonly now: () => number;
  private lastExhaustedLog = 0;
  private listening = false;
  private kubevirt: KubevirtView | undefined;
  /** `mac ip` of blocked VMI pins already logged under the current view. */
  private readonly blockedLogged = new Set<string>();
  private storeDamage: readonly StoreDamage[] = [];
  private readonly recovery: RecoveryProbes;
  private pair: HaPair | undefined;
  /** The pair partner's serverIP (config `ha`, which a reload cannot change), parsed once. */
  private partnerIp: number | undefined;

  constructor(private readonly o: DhcpServerOptions) {
    this.config = o.config;
    this.net = compileNetwork(o.config);
    this.log = o.log;
    this.now = o.now ?? Date.now;
    const timeoutMs = o.probeTimeoutMs ?? 500;
    this.recovery = new RecoveryProbes({
      prober:
        o.prober ??
        (timeoutMs > 0 ? new ArpProber({ source: o.config.network.serverIP, timeoutMs }) : undefined),
      log: o.log,
      now: this.now,
      leaseSecs: () => this.config.leaseTimeSeconds,
    });
    this.metrics = dhcpMetrics(o.registry, () => this.table?.activeCount(this.now()) ?? 0, {
      recovering: () => this.recovery.active(),
      held: () => this.recovery.heldCount(),
    });
  }

  /** Opens the lease store, binds both sockets; resolves once serving. Stops when SIGNAL aborts. */
  async start(signal: AbortSignal): Promise<void> {
    const server = formatIPv4(this.net.serverIp);
    if (this.o.interface !== undefined) {
      await waitForInterface(this.o.interface, server, {
        list: networkInterfaces,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        timeoutMs: this.o.interfaceWaitMs ?? 60_000,
        onWait: (why) => this.log.warn({ interface: this.o.interface, why }, 'Waiting for the interface'),
        signal,
      });
    }
    const opened = await this.openStore();
    this.store = opened.store;
    this.table = opened.table;
    this.storeDamage = opened.damage;
    await this.recovery.begin(this.o.leaseDir, opened, this.metrics.recovery);
    await this.startPair();
    logOpened(this.log, opened, this.o.leaseDir);
    const port = this.o.serverPort ?? 67;
    const recvBufferSize = this.o.recvBufferBytes ?? 4 * 1024 * 1024;
    const broadcasts = await bindSocket(port, '255.255.255.255', recvBufferSize);
    const bound = await bindSocket(port, server, recvBufferSize);
    bound.setBroadcast(true);
    this.sockets = [broadcasts, bound];
    this.sender = bound;
    for (const s of this.sockets) {
      const arrival = s === broadcasts ? 'broadcast' : 'unicast';
      s.on('message', (msg, rinfo) => this.onMessage(msg, rinfo, arrival));
      s.on('error', (err) => this.log.error({ err }, 'Socket error'));
    }
    this.metrics.poolSize.set(poolSize(this.net));
    this.listening = true;
    this.log.info(
      {
        serverIP: server,
        port,
        interface: this.o.interface,
        // what the kernel granted (Linux reports twice the size asked, capped at net.core.rmem_max)
        recvBufferBytes: bound.getRecvBufferSize(),
        uptimeMs: Math.round(performance.now()),
      },
      'Serving',
    );
    signal.addEventListener('abort', () => void this.stop(), { once: true });
  }

  /** With the config's `ha` block: the pair, listening on serverIP before the DHCP sockets are bound. */
  private async startPair(): Promise<void> {
    this.partnerIp =
      this.config.ha !== undefined ? parseDottedQuad(this.config.ha.partner.address) : undefined;
    this.pair = createPair({
      ...{ config: this.config, secret: this.o.haSecret, registry: this.o.registry, log: this.log },
      ...{ now: this.now, changed: () => this.o.onLeaseChange?.() },
      ...{ table: () => this.table!, store: () => this.store!, net: () => this.net },
      probe:
        this.o.haProbe === false
          ? false
          : { clientPort: this.o.clientPort ?? 68, serverPort: this.o.serverPort ?? 67 },
    });
    await this.pair?.start();
  }

  /** The pair's state (config `ha`), for the `HighAvailability` condition; undefined without a pair. */
  haStatus(): HaStatus | undefined {
    return this.pair?.status();
  }

  ready(): boolean {
    return this.listening;
  }

  /** The lease store's health, for the `LeaseStore` condition: a write failure now, damage found on open, recovery. */
  storeHealth(): LeaseStoreFacts {
    const r = this.recovery.active() ? this.recovery.window() : undefined;
    return {
      failure: this.store?.failing,
      damage: this.storeDamage,
      ...(r !== undefined ? { recovery: r } : {}),
    };
  }

  private openStore() {
    return LeaseStore.open(
      this.o.leaseDir,
      storeEvents(this.metrics, this.log, () => this.o.onLeaseChange?.()),
      this.o.storeBackoff !== undefined ? { backoff: this.o.storeBackoff } : {},
    );
  }

  /** Swaps in a new config; the leases stay. The server address cannot change without a restart. */
  reload(config: DhcpConfig): Reload {
    if (config.network.serverIP !== this.config.network.serverIP) {
      return { ok: false, why: 'network.serverIP changed; restart to serve from another address' };
    }
    if (JSON.stringify(config.ha) !== JSON.stringify(this.config.ha))
      return { ok: false, why: 'ha changed; restart to change the pair' };
    this.net = compileNetwork(config);
    this.config = config;
    if (this.table !== undefined) this.table.cursor = 0;
    this.metrics.poolSize.set(poolSize(this.net));
    return { ok: true };
  }

  get metricsOf(): DhcpMetrics {
    return this.metrics;
  }

  /** The network as served now (after the last accepted reload). */
  get served(): ServedNetwork {
    return this.net;
  }

  /** Bound unexpired leases and every durable record (expired, released and declined ones too). */
  leaseCounts(): { active: number; total: number } {
    const now = this.now();
    let active = 0;
    let total = 0;
    for (const l of this.table?.values() ?? []) {
      if (l.state === 'offered') continue;
      total++;
      if (l.state === 'bound' && l.expiresAt > now) active++;
    }
    return { active, total };
  }

  /** Swaps in what the KubeVirt index says now (undefined: KubeVirt mode off). */
  setKubevirt(view: KubevirtView | undefined): void {
    const table = this.table;
    if (table !== undefined && this.kubevirt !== undefined) {
      // an address no longer pinned is never-used again: let the next-unused scan see it
      for (const ip of this.kubevirt.pinnedIps.keys())
        if (view?.pinnedIps.has(ip) !== true) table.cursor = Math.min(table.cursor, ip);
    }
    this.kubevirt = view;
    this.blockedLogged.clear();
  }

  /** Releases the bound leases of these MACs (their VMI is gone and the grace ended); durable before it resolves. */
  async release(releases: readonly Release[]): Promise<void> {
    const table = this.table;
    if (table === undefined || this.store === undefined || releases.length === 0) return;
    const now = this.now();
    const macs = new Map(releases.map((r) => [r.mac, r]));
    const changed: Lease[] = [];
    const names: { mac: string; ip: string; vmi: string }[] = [];
    for (const l of table.values()) {
      const r = macs.get(l.mac);
      if (r === undefined || l.state !== 'bound' || !holds(l, now)) continue;
      changed.push({ ...l, state: 'released', expiresAt: now });
      names.push({ mac: l.mac, ip: formatIPv4(l.ip), vmi: r.vmi });
    }
    if (changed.length === 0) return;
    const applied = applyChanges(
      table,
      changed.map((lease) => ({ op: 'release', lease })),
    );
    try {
      await commitEverywhere(this.store, this.pair, changed);
    } catch (err) {
      if (!(err instanceof ReplicationFailedError)) undoChanges(table, applied);
      throw err;
    }
    for (const n of names) this.log.info(n, 'VMI gone; lease released');
    this.o.onLeaseChange?.();
  }

  /**
   * Closes the sockets, then lets pending commits finish and closes the store. With a pair, the partner is told
   * (it serves at once); FAREWELL false leaves it out, as a crash would (tests).
   */
  async stop(farewell = true): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    await Promise.all(this.sockets.map((s) => new Promise<void>((r) => s.close(() => r()))));
    await this.recovery.close();
    await this.pair?.stop(farewell);
    await this.store?.close();
    this.log.info({}, 'Stopped');
  }

  private onMessage(msg: Buffer, rinfo: RemoteInfo, arrival: Arrival): void {
    try {
      const r = decodePacket(msg);
      if (!r.ok) {
        this.metrics.packets.inc({ type: 'malformed' });
        this.drop(r.reason, undefined);
        return;
      }
      const p = r.packet;
      this.metrics.packets.inc({ type: typeLabel(messageType(p)) });
      if (this.pair !== undefined && !this.pair.serving()) {
        this.pair.observe(p, arrival);
        // the retry that made this server take over is answered now, not one retry interval later
        if (!this.pair.serving()) return this.drop('ha_not_serving', p);
      }
      const at = { sourceIp: parseDottedQuad(rinfo.address) ?? 0, arrival };
      const input = this.inputFor(p, at);
      const d = decide(input);
      if (this.kubevirt !== undefined)
        noteKubevirt(
          { metrics: this.metrics.kubevirt, logged: this.blockedLogged, table: this.table, log: this.log },
          input,
          d,
        );
      if (this.recovery.wants(input, d)) this.offerAfterProbe(p, at, d, 1);
      else this.carryOut(p, d);
    } catch (err) {
      this.drop('internal_error', undefined);
      this.log.error({ err }, 'Request handling failed');
    }
  }

  private inputFor(p: DhcpPacket, at: Pick<DecideInput, 'sourceIp' | 'arrival'>): DecideInput {
    const holds = this.recovery.holds();
    const partner = this.partnerIp;
    const fromPartner = partner !== undefined && at.sourceIp === partner && p.ciaddr === partner;
    return {
      packet: p,
      net: this.net,
      table: this.table!,
      now: this.now(),
      ...at,
      offerHoldMs: this.o.offerHoldMs ?? 30_000,
      ...(this.kubevirt !== undefined ? { kubevirt: this.kubevirt } : {}),
      ...(holds !== undefined ? { probeHolds: holds } : {}),
      ...(fromPartner ? { fromPartner } : {}),
    };
  }

  /**
   * While the store recovers: the offered address is held for the client during an ARP probe; when another host
   * answers, the offer is undone, the address held for that host, and the DISCOVER decided again.
   */
  private offerAfterProbe(
    p: DhcpPacket,
    at: Pick<DecideInput, 'sourceIp' | 'arrival'>,
    d: Extract<Decision, { kind: 'reply' }>,
    attempt: number,
  ): void {
    if (this.tooLarge(p, d)) return;
    const table = this.table!;
    const applied = applyChanges(table, d.changes);
    this.recovery.mayOffer(d.reply.yiaddr, macOf(p)).then(
      (ok) => {
        if (ok) return this.send(p, d);
        undoChanges(table, applied);
        if (attempt >= MAX_PROBES_PER_OFFER) return this.drop('address_in_use', p);
        const input = this.inputFor(p, at);
        const next = decide(input);
        if (this.recovery.wants(input, next)) this.offerAfterProbe(p, at, next, attempt + 1);
        else this.carryOut(p, next);
      },
      (err: unknown) => {
        undoChanges(table, applied);
        this.drop('internal_error', p);
        this.log.error({ err }, 'Request handling failed');
      },
    );
  }

  private carryOut(p: DhcpPacket, d: Decision): void {
    if (d.kind === 'drop') {
      this.drop(d.reason, p);
      return;
    }
    if (this.tooLarge(p, d)) return;
    const durable: Lease[] = [];
    for (const c of d.changes) if (c.op !== 'unoffer' && durableOps.has(c.op)) durable.push(c.lease);
    const table = this.table!;
    const applied = applyChanges(table, d.changes);
    if (durable.length === 0) {
      if (d.kind === 'reply') this.send(p, d);
      return;
    }
    commitEverywhere(this.store!, this.pair, durable).then(
      () => {
        if (d.kind === 'reply') this.send(p, d);
        else this.log.info({ mac: macOf(p), ip: formatIPv4(durable[0]!.ip), what: d.what }, 'Lease changed');
        this.o.onLeaseChange?.();
        if (this.store!.wantsCompaction(this.table!.size)) {
          this.store!.compact(this.table!).catch((err: unknown) =>
            this.log.error({ err }, 'Lease compaction failed'),
          );
        }
      },
      (err: unknown) => {
        if (err instanceof ReplicationFailedError) {
          this.drop('ha_replication_failed', p);
          return this.log.warn(
            { mac: macOf(p), why: err.message },
            'Partner did not take the lease; reply not sent',
          );
        }
        undoChanges(table, applied);
        this.drop('commit_failed', p);
        // during the backoff after a failed write (logged once per write) each refusal is only a debug line
        if (err instanceof LeaseStoreUnavailableError) {
          if (this.log.isLevelEnabled('debug'))
            this.log.debug({ mac: macOf(p), code: err.code }, 'Lease store backing off; reply not sent');
        } else this.log.error({ err, mac: macOf(p) }, 'Lease commit failed; change undone, reply not sent');
      },
    );
  }

  /** A lease the store could not hold (a field past RECORD_LIMITS): refused before anything is applied. */
  private tooLarge(p: DhcpPacket, d: Exclude<Decision, { kind: 'drop' }>): boolean {
    const why = tooLargeWhy(d);
    if (why === undefined) return false;
    this.drop('lease_too_large', p);
    this.log.warn({ mac: macOf(p), why }, 'Request refused: its lease does not fit a lease record');
    return true;
  }

  private send(p: DhcpPacket, d: Extract<Decision, { kind: 'reply' }>): void {
    if (!this.listening || this.sender === undefined) return;
    const bytes = encodePacket(d.reply);
    const [host, port] = target(d.to, this.o.clientPort ?? 68, this.o.serverPort ?? 67);
    this.sender.send(bytes, port, host, (err) => {
      if (err) {
        this.metrics.sendErrors.inc();
        this.log.warn({ err, mac: macOf(p), host }, 'Reply not sent');
      }
    });
    this.metrics.replies.inc({ type: d.type });
    if (d.type === 'nak') this.log.info({ mac: macOf(p), xid: p.xid, why: d.why }, 'NAK sent');
    else if (this.log.isLevelEnabled('debug')) {
      this.log.debug(
        { mac: macOf(p), xid: p.xid, ip: formatIPv4(d.reply.yiaddr), type: d.type, host },
        'Reply sent',
      );
    }
  }

  private drop(reason: DropLabel, p: DhcpPacket | undefined): void {
    this.metrics.drops.inc({ reason });
    if (reason === 'pool_exhausted') {
      const t = this.now();
      if (t - this.lastExhaustedLog >= 1000) {
        this.lastExhaustedLog = t;
        this.log.warn({ mac: p !== undefined ? macOf(p) : undefined }, 'Pool exhausted; no offer');
      }
    } else if (this.log.isLevelEnabled('debug')) {
      this.log.debug({ reason, mac: p !== undefined ? macOf(p) : undefined }, 'Request dropped');
    }
  }
}
