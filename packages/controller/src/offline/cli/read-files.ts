// Reads the files given with -f into documents, naming the file (and line) of anything unreadable. `-` is stdin.
// Input is bounded before it is parsed (docs/limits.md): at most MAX_FILE_BYTES per file (read in chunks, so
// `/dev/zero` or an endless pipe stops at the bound), UTF-8 text without NUL bytes, nesting at most MAX_DEPTH
// (measured on the parser's token tree, which is built without recursion, before the recursive composer runs),
// and at most MAX_ALIASES alias expansions per document (the billion-laughs bound).
import { closeSync, openSync, readSync } from 'node:fs';
import { Parser, parseAllDocuments } from 'yaml';
import type { SourceDocument } from '../render/input';

export interface ReadFiles {
  readonly docs: SourceDocument[];
  readonly errors: string[];
}

/** Largest file (or stdin) read: 4 MiB, far above any real set of CRs (an Infra with 1,000 attachments is ~1 MiB). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Deepest nesting of collections in a document (our kinds nest about ten deep). */
export const MAX_DEPTH = 64;
/** Most alias expansions per document. */
export const MAX_ALIASES = 100;

const CHUNK = 64 * 1024;

function readBounded(file: string): Buffer | string {
  const fd = file === '-' ? 0 : openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) return Buffer.concat(chunks, total);
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES} bytes (the input limit)`;
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

function textOf(bytes: Buffer): string | { problem: string } {
  if (bytes.includes(0)) return { problem: 'not a text file (it holds a NUL byte)' };
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'not UTF-8 text' };
  }
}

/** The deepest collection nesting of each document, walked on the CST without recursion. */
function depths(text: string): number[] {
  const out: number[] = [];
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') continue;
    let max = 0;
    const stack: [unknown, number][] = [[token.value, 0]];
    while (stack.length > 0) {
      const [t, d] = stack.pop()!;
      max = Math.max(max, d);
      const items = (t as { items?: { key?: unknown; value?: unknown }[] } | undefined)?.items;
      for (const it of Array.isArray(items) ? items : []) {
        if (it.key) stack.push([it.key, d + 1]);
        if (it.value) stack.push([it.value, d + 1]);
      }
    }
    out.push(max);
  }
  return out;
}

function parseText(file: string, text: string, docs: SourceDocument[], errors: string[]): void {
  const deepest = depths(text).findIndex((d) => d > MAX_DEPTH);
  if (deepest >= 0) {
    errors.push(`${file}: document ${deepest + 1}: nested deeper than ${MAX_DEPTH} levels (the input limit)`);
    return;
  }
  parseAllDocuments(text, { uniqueKeys: true }).forEach((doc, i) => {
    for (const e of doc.errors) {
      const at = e.linePos?.[0];
      errors.push(
        `${file}${at ? `:${at.line}:${at.col}` : ''}: document ${i + 1}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      );
    }
    if (doc.errors.length > 0) return;
    try {
      docs.push({ file, index: i + 1, value: doc.toJS({ maxAliasCount: MAX_ALIASES }) as unknown });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      errors.push(`${file}: document ${i + 1}: ${why.split('\n')[0]!}`);
    }
  });
}

export function readFiles(files: readonly string[]): ReadFiles {
  const docs: SourceDocument[] = [];
  const errors: string[] = [];
  for (const file of files) {
    let bytes: Buffer | string;
    try {
      bytes = readBounded(file);
    } catch (err) {
      errors.push(`${file}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (typeof bytes === 'string') {
      errors.push(`${file}: ${bytes}`);
      continue;
    }
    const text = textOf(bytes);
    if (typeof text !== 'string') errors.push(`${file}: ${text.problem}`);
    else parseText(file, text, docs, errors);
  }
  return { docs, errors };
}
