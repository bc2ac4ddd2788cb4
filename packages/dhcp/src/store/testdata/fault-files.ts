// A filesystem shim for the store's fault tests: real files underneath (node:fs/promises), with one planned fault
// per operation kind injected at its Nth call. A fault on writev can write a prefix of the bytes first, as a full
// disk does (the kernel takes what fits, then refuses the rest).
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { StoreFile, StoreFiles } from '../lease-store';

export type FaultOp = 'writev' | 'truncate' | 'datasync' | 'sync' | 'close' | 'open';

export interface Fault {
  readonly op: FaultOp;
  /** The call of OP (counted from 0, over every handle) that fails. */
  readonly at: number;
  /** 'short': writev writes `keep` of the bytes and reports that, with no error; otherwise the errno thrown. */
  readonly kind: 'short' | 'ENOSPC' | 'EIO' | 'EDQUOT';
  /** writev: the fraction (0..1) of the bytes written before the short count or the error. */
  readonly keep?: number;
  /** How many calls of OP fail from `at` on (a disk that stays full for a while). @default 1 */
  readonly times?: number;
  /** writev: how long the faulty call takes (a slow, dying disk). @default 0 */
  readonly delayMs?: number;
}

const errno = (code: string, op: string) =>
  Object.assign(new Error(`${code}: injected by the filesystem shim, ${op}`), { code });

export class FaultFiles implements StoreFiles {
  readonly calls: Record<FaultOp, number> = { writev: 0, truncate: 0, datasync: 0, sync: 0, close: 0, open: 0 };
  /** Faults that fired, in order. */
  readonly fired: Fault[] = [];
  faults: Fault[] = [];

  constructor(faults: readonly Fault[] = []) {
    this.faults = [...faults];
  }

  /** The fault for this call of OP, if one is planned (and counts the call). */
  private due(op: FaultOp): Fault | undefined {
    const n = this.calls[op]++;
    const f = this.faults.find((x) => x.op === op && n >= x.at && n < x.at + (x.times ?? 1));
    if (f !== undefined) this.fired.push(f);
    return f;
  }

  async open(path: string, flags: number | string): Promise<StoreFile> {
    const f = this.due('open');
    if (f !== undefined && f.kind !== 'short') throw errno(f.kind, `open ${path}`);
    return this.wrap(await open(path, flags));
  }

  private wrap(h: FileHandle): StoreFile {
    const files = this;
    return {
      async writev(buffers: NodeJS.ArrayBufferView[], position?: number) {
        const f = files.due('writev');
        if (f === undefined) return h.writev(buffers, position);
        if (f.delayMs !== undefined) await new Promise((r) => setTimeout(r, f.delayMs));
        const bufs = buffers as Buffer[];
        const total = bufs.reduce((a, b) => a + b.length, 0);
        const keep = Math.min(total, Math.floor(total * (f.keep ?? 0)));
        if (keep > 0) await h.writev([Buffer.concat(bufs).subarray(0, keep)]);
        if (f.kind === 'short' && keep < total) return { bytesWritten: keep, buffers };
        if (f.kind === 'short') return { bytesWritten: total, buffers };
        throw errno(f.kind, 'writev');
      },
      async truncate(len?: number) {
        const f = files.due('truncate');
        if (f !== undefined) throw errno(f.kind === 'short' ? 'EIO' : f.kind, 'truncate');
        return h.truncate(len);
      },
      async datasync() {
        const f = files.due('datasync');
        if (f !== undefined) throw errno(f.kind === 'short' ? 'EIO' : f.kind, 'datasync');
        return h.datasync();
      },
      async sync() {
        const f = files.due('sync');
        if (f !== undefined) throw errno(f.kind === 'short' ? 'EIO' : f.kind, 'sync');
        return h.sync();
      },
      async close() {
        const f = files.due('close');
        await h.close();
        if (f !== undefined) throw errno(f.kind === 'short' ? 'EIO' : f.kind, 'close');
      },
    } as StoreFile;
  }
}
