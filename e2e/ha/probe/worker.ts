// The probe's client, run inside a VM's network namespace (probe.ts starts it with tsx). It takes a DHCP lease with a
// real udhcpc kept running in the foreground (its hook sets the address and prints what happened), then until
// SIGTERM or its time limit: a DNS lookup every DNS_EVERY ms against the resolvers that lease handed out (resolv.conf
// semantics, resolver.ts), a new TLS connection through the proxy every TLS_EVERY ms (SNI of a hosted cluster, the
// peer verified against that cluster's CA), and a renewal every DHCP_EVERY ms (SIGUSR1 to udhcpc, schedule.ts). Every
// operation is one JSON line on stdout (report.ts's OpRecord); `{"lease":…}` says the first lease.
// usage: tsx worker.ts '<WorkerConfig as JSON>'
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
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
    sock.on('error', (err) => finish(done(false, err.message)));
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

function dhcpClient(onLease: (ip: string, dns: string[]) => void): { tick: () => void; kill: () => void } {
  const argv = ['-f', '-i', cfg.ifname, '-s', cfg.hook, '-t', '5', '-T', '1', '-A', '1', '-O', 'dns'];
  const child = spawn(cfg.udhcpc, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  let pending: number | undefined;
  let held: string | undefined;
  let buf = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const [tag, event = '', ip = '', ...dns] = buf.slice(0, nl).trim().split(/\s+/);
      buf = buf.slice(nl + 1);
      if (tag !== 'HOOK' || stopping) continue;
      const outcome = hookOutcome(event);
      if (outcome === 'other') continue;
      const lost = outcome === 'lost' || (held !== undefined && ip !== held);
      if (outcome === 'ok' && held === undefined) onLease(ip, dns);
      held = outcome === 'ok' ? ip : undefined;
      if (pending !== undefined || lost) {
        const ok = outcome === 'ok';
        emit({
          op: 'dhcp',
          client: cfg.client,
          start: pending ?? Date.now(),
          end: Date.now(),
          ok,
          detail: event,
          ...(ok ? { ip } : {}),
          ...(lost ? { lost } : {}),
        });
      }
      if (outcome === 'ok') pending = undefined;
    }
  });
  const tick = () => {
    const now = Date.now();
    const step = dhcpStep(pending, now, 5 * cfg.dhcpEveryMs);
    if (step === 'give-up') {
      emit({ op: 'dhcp', client: cfg.client, start: pending!, end: now, ok: false, detail: 'no answer' });
      pending = undefined;
    } else if (step === 'renew' && held !== undefined) {
      pending = now;
      child.kill('SIGUSR1');
    }
  };
  return { tick, kill: () => void child.kill('SIGTERM') };
}

const dhcp = dhcpClient((ip, dns) => {
  resolvers = dns;
  emit({ lease: { ip, dns } });
  if (cfg.dns) every(cfg.dns.everyMs, () => lookup(Math.floor(Math.random() * 0xffff)));
  if (cfg.tls) every(cfg.tls.everyMs, handshake);
});
const dhcpTimer = setInterval(dhcp.tick, cfg.dhcpEveryMs);
const stop = () => {
  stopping = true;
  clearInterval(dhcpTimer);
  dhcp.kill();
  setTimeout(() => process.exit(0), 200);
};
process.on('SIGTERM', stop);
setTimeout(stop, cfg.limitMs);
