// --from-file: reads a ProxyServer YAML (or JSON) document and re-reads it when it changes (polled, so it works
// with editors and `mv` replacements alike).
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { ProxyServerSpec } from '@oooi/api';
import type { Logger } from 'pino';
import { parse } from 'yaml';

export function readProxyServerFile(path: string): Partial<ProxyServerSpec> {
  const doc = parse(readFileSync(path, 'utf8')) as { kind?: string; spec?: Partial<ProxyServerSpec> } | null;
  if (!doc || typeof doc !== 'object') throw new Error(`${path}: not a YAML object`);
  if (doc.kind !== undefined && doc.kind !== 'ProxyServer')
    throw new Error(`${path}: kind ${doc.kind}, want ProxyServer`);
  return doc.spec ?? {};
}

export interface FileSourceOptions {
  readonly path: string;
  readonly log: Logger;
  readonly onSpec: (spec: Partial<ProxyServerSpec>) => void;
  /** Poll interval. @default 250 */
  readonly intervalMs?: number;
}

/** Reads the file now (throws if unreadable) and on every change until SIGNAL aborts. */
export function watchProxyServerFile(o: FileSourceOptions, signal: AbortSignal): void {
  o.onSpec(readProxyServerFile(o.path));
  const listener = (): void => {
    try {
      o.onSpec(readProxyServerFile(o.path));
    } catch (err) {
      o.log.warn({ err, path: o.path }, 'ProxyServer file unreadable; last good snapshot stays served');
    }
  };
  watchFile(o.path, { interval: o.intervalMs ?? 250 }, listener);
  signal.addEventListener('abort', () => unwatchFile(o.path, listener), { once: true });
}
