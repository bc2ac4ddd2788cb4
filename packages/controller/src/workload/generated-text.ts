// The one gate for strings that reach a generated file (Corefile, zone files) or a file name: every such string
// from a CR is checked here by the validator that admits the object (`generatedWordProblem`, reported with its
// field path) and asserted again by the renderer that writes it (`word`, `fileWord`). A word is printable ASCII
// without white space, quotes, braces, parentheses, `#`, `;`, `$`, `\` or backquote, so it can neither end a line
// or a block, nor open a comment, a directive, a quoted string or an expansion in CoreDNS's Caddyfile syntax or
// an RFC 1035 master file. Nothing is escaped: what cannot be written as is, is refused.

/** Longest word a generated file holds (a DNS name is at most 253; an image reference at most 512). */
export const MAX_WORD_LENGTH = 512;

/** The longest file name most file systems accept (NAME_MAX). */
export const MAX_FILE_NAME_LENGTH = 255;

const WORD = /^[A-Za-z0-9._:/*+=@,%~!?[\]-]+$/;

/** Why TEXT cannot be written into a generated file as one word, or undefined when it can. */
export function generatedWordProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return `Invalid value: ${typeof text}: must be a string`;
  if (text.length === 0) return 'Invalid value: "": must not be empty';
  if (text.length > MAX_WORD_LENGTH) return `Too long: may not be more than ${MAX_WORD_LENGTH} characters`;
  if (!WORD.test(text)) {
    return `Invalid value: ${JSON.stringify(text)}: may hold only letters, digits and . _ : / * + = @ , % ~ ! ? [ ] - (no white space, quotes, braces, parentheses, # ; $ \\ or backquote)`;
  }
  return undefined;
}

/** Why TEXT cannot be one component of a generated file's name, or undefined when it can. */
export function fileWordProblem(text: unknown): string | undefined {
  const problem = generatedWordProblem(text);
  if (problem) return problem;
  const s = text as string;
  if (s.includes('/') || s === '.' || s === '..')
    return `Invalid value: ${JSON.stringify(s)}: not a file name`;
  return s.length > MAX_FILE_NAME_LENGTH
    ? `Too long: a file name may not be more than ${MAX_FILE_NAME_LENGTH} characters`
    : undefined;
}

/** Thrown when a renderer is handed a string its validation should have refused (a bug, never user input). */
export class UnsafeTextError extends Error {
  constructor(what: string, problem: string) {
    super(`refusing to write ${what} into a generated file: ${problem}`);
    this.name = 'UnsafeTextError';
  }
}

/** TEXT as one word of a generated file; throws {@link UnsafeTextError} when it is not one. */
export function word(text: string, what = 'a string'): string {
  const problem = generatedWordProblem(text);
  if (problem) throw new UnsafeTextError(what, problem);
  return text;
}

/** TEXT as one component of a generated file name; throws {@link UnsafeTextError} when it is not one. */
export function fileWord(text: string, what = 'a file name'): string {
  const problem = fileWordProblem(text);
  if (problem) throw new UnsafeTextError(what, problem);
  return text;
}
