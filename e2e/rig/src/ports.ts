// Free TCP ports on 127.0.0.1, chosen at run time (several rigs may run at once; nothing is hard-coded).
import { createServer, type Server } from 'node:net';

function listenEphemeral(): Promise<Server> {
  return new Promise((resolveListen, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => resolveListen(srv));
  });
}

/**
 * Returns `count` distinct free ports on 127.0.0.1. All are held open together until every one is chosen,
 * so one call never returns the same port twice; the kernel's ephemeral allocator makes collisions with a
 * concurrent caller unlikely (it hands out ports in sequence).
 */
export async function freePorts(count: number): Promise<number[]> {
  if (count < 1 || count > 64) throw new Error(`rig: freePorts(${count}) out of range 1..64`);
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenEphemeral());
    return servers.map((s) => {
      const addr = s.address();
      if (addr === null || typeof addr === 'string') throw new Error('rig: no port from listen(0)');
      return addr.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}

/** One free port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const [p] = await freePorts(1);
  if (p === undefined) throw new Error('rig: no free port');
  return p;
}
