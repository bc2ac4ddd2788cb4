// Entry point of the oooi-dhcp process (bundled into its container image; `pnpm --silent oooi-dhcp …` from
// the repository root). Exits 0 after SIGTERM/SIGINT (sockets closed, pending lease commits flushed), 1 when
// it cannot start (bad config, interface without the server address, port taken, a lease file of a format this
// version cannot read), 2 on a usage error.
import { setMaxListeners } from 'node:events';
import { pino } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { parseDhcpCommand } from './server/command';
import { runDhcp } from './server/run-dhcp';
import { LeaseStoreFormatError } from './store/lease-store';

async function main(): Promise<number> {
  const parsed = parseDhcpCommand(process.argv.slice(2));
  if (!parsed.ok) {
    (parsed.exitCode === 0 ? process.stdout : process.stderr).write(`${parsed.message}\n`);
    return parsed.exitCode;
  }
  const log = pino({ name: 'oooi-dhcp', level: parsed.command.logLevel });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'oooi_dhcp_' });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const onSignal = (signal: string): void => {
    if (stop.signal.aborted) {
      log.warn({ signal }, 'Second signal, exiting now');
      process.exit(1);
    }
    log.info({ signal }, 'Shutting down');
    stop.abort();
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  try {
    const command = { ...parsed.command, kubeconfig: parsed.command.kubeconfig ?? process.env.KUBECONFIG };
    await runDhcp(command, { log, registry, signal: stop.signal });
    return 0;
  } catch (err) {
    // a lease file this version cannot read: one line naming it, no stack (nothing is wrong with the process)
    if (err instanceof LeaseStoreFormatError) log.fatal({ file: err.file, offset: err.offset }, err.message);
    else log.fatal({ err }, 'oooi-dhcp failed');
    return 1;
  }
}

void main().then((code) => {
  process.exitCode = code;
});
