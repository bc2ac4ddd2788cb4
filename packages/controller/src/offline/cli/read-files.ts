// Reads the files given with -f into documents, naming the file (and line) of anything unreadable. `-` is stdin.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { SourceDocument } from '../render/input';

export interface ReadFiles {
  readonly docs: SourceDocument[];
  readonly errors: string[];
}

function textOf(file: string): string {
  return readFileSync(file === '-' ? 0 : file, 'utf8');
}

export function readFiles(files: readonly string[]): ReadFiles {
  const docs: SourceDocument[] = [];
  const errors: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = textOf(file);
    } catch (err) {
      errors.push(`${file}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    parseAllDocuments(text).forEach((doc, i) => {
      for (const e of doc.errors) {
        const at = e.linePos?.[0];
        errors.push(
          `${file}${at ? `:${at.line}:${at.col}` : ''}: document ${i + 1}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        );
      }
      if (doc.errors.length === 0) docs.push({ file, index: i + 1, value: doc.toJS() as unknown });
    });
  }
  return { docs, errors };
}
