// One Envoy (the rig's pinned binary) inside a bench namespace, bootstrapped to ADS on 127.0.0.1:PORT of that
// namespace (@oooi/envoy's renderAdsBootstrap, as oooi-xds's Envoy is). Its admin interface listens on a unix
// socket in the scope directory instead of a TCP port, so the bench reads /ready and /stats from the root
// namespace without a relay.
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { renderAdsBootstrap } from '@oooi/envoy';
import { rigBin, type Netns, type TrackedProc } from '@oooi/rig';

export interface BenchEnvoy {
  readonly proc: TrackedProc;
  readonly startedAt: number;
  get(path: string): Promise<{ status: number; body: string }>;
  ready(): Promise<boolean>;
  stats(filter: string): Promise<Record<string, number>>;
}

function get(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`envoy admin ${path}: timeout`)));
    req.on('error', reject);
    req.end();
  });
}

export async function startEnvoy(o: {
  ns: Netns;
  dir: string;
  label: string;
  xdsPort: number;
  delta: boolean;
}): Promise<BenchEnvoy> {
  const socket = join(o.dir, `${o.label}.admin.sock`);
  const boot = JSON.parse(
    renderAdsBootstrap({ id: 'bench', xdsAddress: '127.0.0.1', xdsPort: o.xdsPort, delta: o.delta }),
  ) as { admin: { address: unknown } };
  boot.admin.address = { pipe: { path: socket } };
  const file = join(o.dir, `${o.label}.bootstrap.json`);
  writeFileSync(file, JSON.stringify(boot));
  const argv = [
    await rigBin('envoy'),
    '-c',
    file,
    '--disable-hot-restart',
    '-l',
    'warn',
    '--drain-time-s',
    '2',
  ];
  const startedAt = performance.now();
  const proc = o.ns.spawn(argv, { label: o.label, logFile: join(o.dir, `${o.label}.log`) });
  const admin = (path: string) => get(socket, path);
  return {
    proc,
    startedAt,
    get: admin,
    ready: async () => (await admin('/ready').catch(() => ({ status: 0 }))).status === 200,
    stats: async (filter) => {
      const r = await admin(`/stats?usedonly&filter=${encodeURIComponent(filter)}`);
      const out: Record<string, number> = {};
      for (const line of r.body.split('\n')) {
        const m = /^([^:]+): (\d+)$/.exec(line.trim());
        if (m) out[m[1]!] = Number(m[2]);
      }
      return out;
    },
  };
}
