// Entry point of the oooi-xds process (bundled into its container image; `pnpm --silent oooi-xds …` from the
// repository root): serves ADS to the Envoy next to it from one ProxyServer, read from a file (--from-file) or, in a
// cluster, watched by namespace and name. Reads the environment (the only place that does), parses the command
// line (command.ts), runs it (run-xds.ts) and exits: 0 after SIGTERM/SIGINT, 1 when it cannot start (one line
// `oooi-xds: <why>` on stderr, no stack) or on a second signal, 2 on a usage error.
import { setMaxListeners } from 'node:events';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { parseXdsCommand } from './command';
import { runXds } from './run-xds';

async function main(): Promise<number> {
  const parsed = parseXdsCommand(process.argv.slice(2), {
    KUBECONFIG: process.env.KUBECONFIG,
    LOG_LEVEL: process.env.LOG_LEVEL,
  });
  if (!parsed.ok) {
    (parsed.exitCode === 0 ? process.stdout : process.stderr).write(`${parsed.message}\n`);
    return parsed.exitCode;
  }
  const log = pino({ level: parsed.command.logLevel, base: { component: 'xds' } });
  const stop = new AbortController();
  // The ADS server, the health server, the source and its watch all listen on this one signal.
  setMaxListeners(0, stop.signal);
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      // a second signal while shutting down: exit now
      if (stop.signal.aborted) process.exit(1);
      log.info({ signal }, 'Shutting down');
      stop.abort();
    });
  try {
    await runXds(parsed.command, { log, registry: new Registry(), signal: stop.signal });
    return 0;
  } catch (err) {
    process.stderr.write(`oooi-xds: ${err instanceof Error ? err.message : String(err)}\n`);
    stop.abort();
    return 1;
  }
}

void main().then((code) => {
  process.exitCode = code;
});
