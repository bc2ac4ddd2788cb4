// The probe's client, run inside a VM's network namespace (probe.ts starts it with tsx). It takes a DHCP lease with a
// real udhcpc (its hook sets the address and prints the lease), then until SIGTERM or its time limit: a DNS lookup
// every dns.everyMs against the resolvers that lease handed out (resolv.conf semantics, resolver.ts), a new TLS
// connection through the proxy every tls.everyMs (SNI of a hosted cluster, the peer verified against that cluster's
// CA), and a renewal every dhcpEveryMs (a RENEWING DHCPREQUEST by unicast to the server that gave the lease; why not
// udhcpc: dhcp-wire.ts), one outstanding at a time, unanswered within dhcpEveryMs counted failed (schedule.ts). Every
// operation is one JSON line on stdout (report.ts's OpRecord); `{"lease":…}` says the first lease.
// usage: tsx worker.ts '<WorkerConfig as JSON>'
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:tls';
import { decodeReply, encodeRenew, renewOutcome } from './dhcp-wire';
import type { OpRecord } from './report';
import { decodeHeader, encodeQuery, endsLookup, resolverTries, type ResolverOptions } from './resolver';
import { dhcpStep, hookOutcome, nextDue } from './schedule';

export interface WorkerConfig {
  readonly client: string;
  readonly ifname: string;
  readonly udhcpc: string;
  /** The hook script (prints `HOOK <event> <ip> <dns…>` and sets the address). */
  readonly hook: string;
  readonly limitMs: number;
  readonly dhcpEveryMs: number;
  readonly dns?: { readonly name: string; readonly everyMs: number; readonly resolver: ResolverOptions };
  readonly tls?: {
    readonly address: string;
    readonly port: number;
    readonly servername: string;
    readonly caFile: string;
    readonly everyMs: number;
    readonly timeoutMs: number;
  };
}

const cfg = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const emit = (r: OpRecord | Record<string, unknown>) => void process.stdout.write(`${JSON.stringify(r)}\n`);
let resolvers: string[] = [];
let stopping = false;

function lookup(id: number): Promise<OpRecord> {
  const start = Date.now();
  const done = (ok: boolean, detail: string): OpRecord => ({
    op: 'dns',
    client: cfg.client,
    start,
    end: Date.now(),
    ok,
    detail,
  });
  const tries = resolverTries(resolvers, cfg.dns!.resolver);
  const sock = createSocket('udp4');
  return new Promise<OpRecord>((resolve) => {
    let i = -1;
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: OpRecord) => {
      clearTimeout(timer);
      sock.close();
      resolve(r);
    };
    const next = (why: string) => {
      clearTimeout(timer);
      const t = tries[++i];
      if (t === undefined) return finish(done(false, why));
      sock.send(encodeQuery(id, cfg.dns!.name), 53, t.server, (err) => {
        if (err) next(`send ${t.server}: ${err.message}`);
      });
      timer = setTimeout(() => next(`timeout ${t.server}`), t.waitMs);
    };
    sock.on('message', (msg) => {
      const h = decodeHeader(msg);
      if (h?.id !== id) return;
      if (endsLookup(h.rcode)) finish(done(true, `${h.rcode} from try ${i + 1}`));
      else next(`${h.rcode} ${tries[i]?.server ?? ''}`);
    });
    sock.on('error', (err) => next(`error ${err.message}`));
    next('no resolvers');
  });
}

function handshake(): Promise<OpRecord> {
  const t = cfg.tls!;
  const start = Date.now();
  const ca = readFileSync(t.caFile);
  return new Promise<OpRecord>((resolve) => {
    const s = connect({ host: t.address, port: t.port, servername: t.servername, ca });
    const end = (ok: boolean, detail: string) => {
      s.destroy();
      resolve({ op: 'tls', client: cfg.client, start, end: Date.now(), ok, detail });
    };
    s.setTimeout(t.timeoutMs, () => end(false, 'timeout'));
    s.once('secureConnect', () =>
      end(s.authorized, s.authorized ? 'verified' : String(s.authorizationError)),
    );
    s.once('error', (err: Error) => end(false, err.message));
  });
}

/** Runs OP on the grid t0 + k * everyMs until stopped (open loop). */
function every(everyMs: number, op: () => Promise<OpRecord>): void {
  const t0 = Date.now();
  const tick = () => {
    if (stopping) return;
    void op().then((r) => !stopping && emit(r));
    setTimeout(tick, Math.max(0, nextDue(t0, everyMs, Date.now() + 1) - Date.now()));
  };
  tick();
}

/** The first lease, from a real udhcpc (it quits once bound; its hook sets the address and prints the lease). */
function firstLease(): Promise<{ ip: string; server: string; dns: string[] }> {
  const argv = ['-f', '-q', '-n', '-i', cfg.ifname, '-s', cfg.hook, '-t', '10', '-T', '1', '-O', 'dns'];
  const child = spawn(cfg.udhcpc, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => void (out += b.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const bound = out
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .find(([tag, event]) => tag === 'HOOK' && hookOutcome(event ?? '') === 'ok');
      if (!bound) return reject(new Error(`udhcpc exited ${String(code)} without a lease:\n${out}`));
      const [, , ip = '', server = '', ...dns] = bound;
      resolve({ ip, server, dns });
    });
  });
}

/**
 * Renewals on the grid (dhcp-wire.ts): a DHCPREQUEST from IP:68, one outstanding at a time, by unicast to
 * LEASE_SERVER (later: to the server identifier of the last ACK, as a client renews with the server that answered);
 * after one goes unanswered, broadcast (RFC 2131 REBINDING: any server of the network may answer, e.g. a standby
 * taking over) until one is answered again, every broadcast of one rebinding with the same xid. A client reaches
 * REBINDING at T2 (7/8 of the lease); here at once.
 */
function renewals(ip: string, leaseServer: string): { tick: () => void; close: () => void } {
  const mac =
    Object.values(networkInterfaces())
      .flat()
      .find((a) => a?.address === ip)?.mac ?? '';
  const sock = createSocket({ type: 'udp4', reuseAddr: true });
  sock.bind(68, ip, () => sock.setBroadcast(true));
  let server = leaseServer;
  let rebinding = false;
  let rebindXid: number | undefined;
  let pending: { xid: number; start: number } | undefined;
  let held = true;
  const record = (ok: boolean, detail: string, lost = false) => {
    if (!stopping)
      emit({
        op: 'dhcp',
        client: cfg.client,
        start: pending!.start,
        end: Date.now(),
        ok,
        detail,
        ...(ok ? { ip } : {}),
        ...(lost ? { lost } : {}),
      });
    pending = undefined;
  };
  sock.on('message', (msg) => {
    const r = decodeReply(msg);
    if (!pending || r?.xid !== pending.xid) return;
    const outcome = renewOutcome(r.type, r.yiaddr, ip);
    if (outcome === 'other') return;
    const how = rebinding ? 'broadcast' : 'unicast';
    record(
      outcome === 'ok',
      `${outcome === 'ok' ? 'ACK' : `NAK or ${r.yiaddr}`} (${how})`,
      outcome === 'lost' && held,
    );
    held = outcome === 'ok';
    // RFC 2131 4.4.5: the server that answered the rebinding (a standby that took over) is the one renewed with next
    if (outcome === 'ok' && r.serverId !== undefined) server = r.serverId;
    rebinding = false;
  });
  sock.on('error', (err) => emit({ error: err.message }));
  const tick = () => {
    const step = dhcpStep(pending?.start, Date.now(), cfg.dhcpEveryMs);
    if (step === 'wait') return;
    if (step === 'give-up') {
      record(false, `no answer (${rebinding ? 'broadcast' : 'unicast'})`);
      rebinding = true;
    }
    // REBINDING retransmits keep the transaction's xid, as udhcpc and dhclient do: a standby counts a client as
    // unanswered only when it sees the same message of one transaction again (packages/dhcp README, Takeover)
    const xid = () => Math.floor(Math.random() * 0xffffffff);
    rebindXid = rebinding ? (rebindXid ?? xid()) : undefined;
    pending = { xid: rebindXid ?? xid(), start: Date.now() };
    const to = rebinding ? '255.255.255.255' : server;
    sock.send(encodeRenew(pending.xid, mac, ip), 67, to, (err) => err && record(false, err.message));
  };
  return { tick, close: () => sock.close() };
}

let dhcp: { tick: () => void; close: () => void } | undefined;
let dhcpTimer: NodeJS.Timeout | undefined;
const stop = () => {
  stopping = true;
  clearInterval(dhcpTimer);
  dhcp?.close();
  setTimeout(() => process.exit(0), 200);
};
process.on('SIGTERM', stop);
setTimeout(stop, cfg.limitMs);
firstLease().then(
  (lease) => {
    resolvers = lease.dns;
    emit({ lease: { ip: lease.ip, dns: lease.dns, server: lease.server } });
    dhcp = renewals(lease.ip, lease.server);
    dhcpTimer = setInterval(dhcp.tick, cfg.dhcpEveryMs);
    if (cfg.dns) every(cfg.dns.everyMs, () => lookup(Math.floor(Math.random() * 0xffff)));
    if (cfg.tls) every(cfg.tls.everyMs, handshake);
  },
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
