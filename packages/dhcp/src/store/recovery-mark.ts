// `recovery.json` in the lease directory: when the store was found new (no snapshot, no journal) or damaged, so
// that a restart during the recovery window (allocate/recovery.ts) keeps it. Written whole (a temporary file,
// fsync, rename, fsync of the directory); a mark that does not parse is taken as a loss found now (the safe side:
// probing longer costs new clients a little time, probing too little may give an address twice).
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecoveryMark, RecoveryReason } from '../allocate/recovery';

export const RECOVERY_FILE = 'recovery.json';
const reasons: readonly RecoveryReason[] = ['new_store', 'damaged_store'];

/** The mark in DIR: undefined when there is none, 'damaged' when it does not parse. */
export async function readRecoveryMark(dir: string): Promise<RecoveryMark | undefined | 'damaged'> {
  let text: string;
  try {
    text = await readFile(join(dir, RECOVERY_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const v = JSON.parse(text) as { since?: unknown; reason?: unknown };
    if (
      typeof v.since === 'number' &&
      Number.isFinite(v.since) &&
      reasons.includes(v.reason as RecoveryReason)
    )
      return { since: v.since, reason: v.reason as RecoveryReason };
  } catch {
    // not JSON: a torn or damaged mark, handled as one that does not parse
  }
  return 'damaged';
}

export async function writeRecoveryMark(dir: string, mark: RecoveryMark): Promise<void> {
  const tmp = join(dir, `${RECOVERY_FILE}.tmp`);
  const f = await open(tmp, 'w');
  try {
    await f.writeFile(`${JSON.stringify({ since: mark.since, reason: mark.reason })}\n`);
    await f.sync();
  } finally {
    await f.close();
  }
  await rename(tmp, join(dir, RECOVERY_FILE));
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/**
 * The mark the store opened with: a new store or damage found now gives a new one (written), else the one on disk
 * (a damaged one is replaced by a loss found now). A mark that cannot be written (a full disk) still holds for
 * this process: ON_WRITE_FAILED is told, and the server starts and serves as it would without the mark file.
 */
export async function settleRecoveryMark(
  dir: string,
  opened: { readonly isNew: boolean; readonly damaged: boolean },
  now: number,
  onWriteFailed: (err: Error) => void = () => undefined,
): Promise<RecoveryMark | undefined> {
  const found: RecoveryReason | undefined = opened.isNew
    ? 'new_store'
    : opened.damaged
      ? 'damaged_store'
      : undefined;
  const onDisk = found === undefined ? await readRecoveryMark(dir) : undefined;
  if (found === undefined && onDisk !== 'damaged') return onDisk;
  const mark: RecoveryMark = { since: now, reason: found ?? 'damaged_store' };
  await writeRecoveryMark(dir, mark).catch(onWriteFailed);
  return mark;
}
