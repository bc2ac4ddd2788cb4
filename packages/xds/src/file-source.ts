// --from-file: reads a ProxyServer YAML (or JSON) document and re-reads it when it changes (polled, so it works
// with editors and `mv` replacements alike). The CRD schema never sees such a file: the validator (run by the
// publisher) is its only gate. A file the validator refuses at start is an error naming every field (the process
// has nothing to serve); refused later, it is reported and the last good snapshot stays served.
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { FieldError, ProxyServerSpec } from '@oooi/api';
import { formatFieldError } from '@oooi/api';
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
  /** Publishes SPEC; returns the validator's errors when it refused it. */
  readonly onSpec: (spec: Partial<ProxyServerSpec>) => readonly FieldError[] | undefined;
  /** Poll interval. @default 250 */
  readonly intervalMs?: number;
}

/** The error for a file whose first read the validator refused: one line per problem, each naming its field. */
export function invalidFileError(path: string, errors: readonly FieldError[]): Error {
  return new Error(
    `${path}: invalid ProxyServer, nothing served:\n${errors.map((e) => `  ${formatFieldError(e)}`).join('\n')}`,
  );
}

/**
 * Reads the file now and on every change until SIGNAL aborts. Throws when the file is unreadable now, or when the
 * validator refuses it now (invalidFileError).
 */
export function watchProxyServerFile(o: FileSourceOptions, signal: AbortSignal): void {
  const errors = o.onSpec(readProxyServerFile(o.path));
  if (errors !== undefined && errors.length > 0) throw invalidFileError(o.path, errors);
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
