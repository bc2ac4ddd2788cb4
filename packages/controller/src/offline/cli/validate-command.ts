// `oooi validate -f FILE…`: prints every problem (admission rules, cross-object checks, what the controller would
// report offline), one per line on stdout; exit 0 when there is none, 1 otherwise.
import { validateDocuments } from '../validate/validate-documents';
import { ExitCode } from './render-command';
import type { Output } from './render-command';
import { readFiles } from './read-files';

export function runValidate(files: readonly string[], io: Output): number {
  const read = readFiles(files);
  const problems = [...read.errors, ...validateDocuments(read.docs)];
  for (const p of problems) io.out(p);
  if (problems.length === 0) {
    io.out(`valid: ${read.docs.filter((d) => d.value !== null).length} objects in ${files.length} files`);
    return ExitCode.ok;
  }
  io.err(`${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  return ExitCode.problems;
}
