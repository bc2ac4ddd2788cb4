// What the operator's two commands (`oooi-controller` and its `config-sync` sidecar, manager/controller-command.ts
// and config-sync/config-sync-command.ts) both take from their command lines: a listen address and a log level.
// A leaf: it imports nothing of the controller, so neither command reaches into the other's folder for it.

export interface Address {
  readonly host: string;
  readonly port: number;
}

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof logLevels)[number];

/** `host:port`, `:port` (all interfaces) or `0`/empty (off). */
export function parseAddress(text: string): Address | undefined | 'invalid' {
  if (text === '' || text === '0') return undefined;
  const m = /^(.*):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) return 'invalid';
  return { host: m[1] === '' ? '0.0.0.0' : m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}
