// Reading and watching the config file. A file is used only when it parses and validateDhcpConfig accepts
// it; otherwise the caller keeps its last good config and logs why. Watching polls the file's stat (which
// follows symlinks, so a Kubernetes ConfigMap volume's atomic ..data swap is seen) and reloads on meaning:
// a rewrite with the same JSON content is not a change.
import { unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { formatFieldError, validateDhcpConfig } from '@oooi/api';
import type { DhcpConfig } from '@oooi/api';
import { canonicalJson } from '@oooi/kube';

export type ConfigLoad =
  | { readonly ok: true; readonly config: DhcpConfig; readonly hash: string }
  | { readonly ok: false; readonly problems: readonly string[] };

export async function loadConfigFile(path: string): Promise<ConfigLoad> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return { ok: false, problems: [`${path}: ${(e as Error).message}`] };
  }
  return parseConfigText(text, path);
}

/** TEXT (a config.json, from a file or a watched ConfigMap named WHERE in the problems) as a served config. */
export function parseConfigText(text: string, where: string): ConfigLoad {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [`${where}: not JSON: ${(e as Error).message}`] };
  }
  const v = validateDhcpConfig(json);
  if (!v.ok) return { ok: false, problems: v.errors.map(formatFieldError) };
  return { ok: true, config: v.value, hash: canonicalJson(v.value) };
}

/** Calls ONCHANGE whenever PATH's stat changes, until SIGNAL aborts. */
export function watchConfigFile(
  path: string,
  intervalMs: number,
  onChange: () => void,
  signal: AbortSignal,
): void {
  const listener = (): void => onChange();
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  signal.addEventListener('abort', () => unwatchFile(path, listener), { once: true });
}

/** The pair's shared secret (config `ha.secretFile`): at least 32 bytes, never logged. */
export async function readHaSecret(file: string): Promise<Buffer> {
  let secret: Buffer;
  try {
    secret = await readFile(file);
  } catch (err) {
    throw new Error(`ha.secretFile ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`, {
      cause: err,
    });
  }
  if (secret.length < 32)
    throw new Error(`ha.secretFile ${file}: holds ${secret.length} bytes, fewer than 32`);
  return secret;
}
