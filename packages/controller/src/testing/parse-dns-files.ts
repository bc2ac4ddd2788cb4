// Parses generated CoreDNS files back, for tests that prove a string from a CR added nothing: the Corefile as
// Caddyfile tokens (comments dropped, `{`/`}` nesting kept) and a zone file as its directives and records.

/** One Corefile line's directive with its nesting depth, e.g. `1 forward` (arguments left out). */
export function corefileShape(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const raw of text.split(/\r\n|\n|\r|\u2028|\u2029/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const tokens = line.split(/\s+/);
    if (tokens[0] === '}') depth--;
    else out.push(`${depth} ${tokens[0]!}`);
    if (tokens[tokens.length - 1] === '{') depth++;
  }
  return out;
}

/** The non-comment content of a Corefile as tokens (to look for quotes, imports, stray words). */
export function corefileTokens(text: string): string[] {
  return text
    .split(/\r\n|\n|\r/)
    .map((l) => l.replace(/(^|\s)#.*$/, ''))
    .flatMap((l) => l.trim().split(/\s+/))
    .filter((t) => t !== '');
}

export interface ZoneParse {
  readonly directives: string[];
  readonly records: { name: string; type: string; value: string }[];
  /** Lines that are neither a comment, a directive, the SOA, nor a plain `name IN A address` record. */
  readonly other: string[];
}

/** A zone file's `$` directives, A records and anything else (which a generated zone never has). */
export function parseZone(text: string): ZoneParse {
  const directives: string[] = [];
  const records: ZoneParse['records'] = [];
  const other: string[] = [];
  for (const raw of text.split(/\r\n|\n|\r/)) {
    const line = raw.replace(/;.*$/, '').trim();
    if (line === '') continue;
    const m = /^(\S+)\s+IN\s+A\s+(\d{1,3}(?:\.\d{1,3}){3})$/.exec(line);
    if (line.startsWith('$')) directives.push(line);
    else if (line.startsWith('@ IN SOA ')) continue;
    else if (m) records.push({ name: m[1]!, type: 'A', value: m[2]! });
    else other.push(line);
  }
  return { directives, records, other };
}
