// The proxy HA e2e test's programs, run inside its namespaces (node with tsx, ha-lab.ts tsxArgv):
//   serve IP PORTS KEY CERT            a TLS echo server on IP at each of PORTS (comma-separated), many at once
//   probe IP PORT SNI MS EVERY TIMEOUT  a new TLS connection every EVERY ms for MS ms, each given TIMEOUT ms to finish
//                                      its handshake and one echo; prints one JSON line per attempt, then `done`
//   hold IP PORT SNI MS                one connection held MS ms, a line echoed every 200 ms; one JSON line per echo
// Bounded in time and count; traffic only to the addresses given (the test's own namespaces).
import { readFileSync } from 'node:fs';
import tls from 'node:tls';

const [mode, ip, ...rest] = process.argv.slice(2);
const now = (): number => Date.now();
const out = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);

function serve(ports: string, key: string, cert: string): void {
  const options = { key: readFileSync(key), cert: readFileSync(cert) };
  for (const port of ports.split(',').map(Number)) {
    tls
      .createServer(options, (s) => {
        s.on('data', (d: Buffer) => s.write(d));
        s.on('error', () => s.destroy());
      })
      .listen(port, ip);
  }
}

/** One connection: handshake, one line echoed, closed; resolves with how it went. */
function attempt(port: number, sni: string, timeoutMs: number): Promise<{ ok: boolean; why?: string }> {
  return new Promise((resolve) => {
    const s = tls.connect({ host: ip, port, servername: sni, rejectUnauthorized: false });
    const done = (ok: boolean, why?: string) => {
      clearTimeout(timer);
      s.destroy();
      resolve(why === undefined ? { ok } : { ok, why });
    };
    const timer = setTimeout(() => done(false, 'timeout'), timeoutMs);
    s.on('secureConnect', () => s.write('x\n'));
    s.on('data', () => done(true));
    s.on('error', (e: NodeJS.ErrnoException) => done(false, e.code ?? e.message));
    s.on('close', () => done(false, 'closed'));
  });
}

interface Probe {
  readonly port: number;
  readonly sni: string;
  readonly ms: number;
  readonly every: number;
  readonly timeoutMs: number;
}

async function probe({ port, sni, ms, every, timeoutMs }: Probe): Promise<void> {
  const start = now();
  const pending: Promise<void>[] = [];
  for (let i = 0; now() - start < ms; i++) {
    const t = now();
    pending.push(attempt(port, sni, timeoutMs).then((r) => out({ i, t, took: now() - t, ...r })));
    await new Promise((r) => setTimeout(r, Math.max(0, start + (i + 1) * every - now())));
  }
  await Promise.all(pending);
  out({ done: true });
}

async function hold(port: number, sni: string, ms: number): Promise<void> {
  const s = tls.connect({ host: ip, port, servername: sni, rejectUnauthorized: false });
  await new Promise<void>((resolve, reject) => {
    s.once('secureConnect', () => resolve());
    s.once('error', reject);
  });
  let closed: string | undefined;
  s.on('error', (e: NodeJS.ErrnoException) => (closed = e.code ?? e.message));
  s.on('close', () => (closed ??= 'closed'));
  let buf = '';
  s.on('data', (d: Buffer) => (buf += d.toString()));
  out({ connected: true, t: now() });
  const start = now();
  for (let i = 0; now() - start < ms; i++) {
    const line = `ping ${i}\n`;
    const t = now();
    s.write(line);
    while (!buf.includes(line) && closed === undefined && now() - t < 2000)
      await new Promise((r) => setTimeout(r, 10));
    out({ i, t, ok: buf.includes(line), ...(closed ? { why: closed } : {}) });
    if (closed) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  s.end();
  out({ done: true });
}

const n = (i: number): number => Number(rest[i]);
if (mode === 'serve') serve(rest[0]!, rest[1]!, rest[2]!);
else if (mode === 'probe') void probe({ port: n(0), sni: rest[1]!, ms: n(2), every: n(3), timeoutMs: n(4) });
else if (mode === 'hold') void hold(n(0), rest[1]!, n(2));
else throw new Error(`ha-prober: unknown mode ${String(mode)}`);
