// Option 119, domain search list (RFC 3397): names in RFC 1035 §3.1 wire format, compressed with
// RFC 1035 §4.1.4 pointers whose offsets count from the start of the option's (concatenated) value.

/** Encodes NAMES with suffix compression: a name ending in an already written suffix points at it. */
export function encodeDomainSearch(names: readonly string[]): Uint8Array {
  const out: number[] = [];
  const suffixAt = new Map<string, number>();
  for (const raw of names) {
    const labels = raw
      .replace(/\.$/, '')
      .toLowerCase()
      .split('.')
      .filter((l) => l !== '');
    let i = 0;
    for (; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      const at = suffixAt.get(suffix);
      if (at !== undefined) {
        out.push(0xc0 | (at >> 8), at & 255);
        break;
      }
      if (out.length < 0x3fff) suffixAt.set(suffix, out.length);
      const l = labels[i]!;
      out.push(l.length);
      for (let k = 0; k < l.length; k++) out.push(l.charCodeAt(k) & 255);
    }
    if (i === labels.length) out.push(0);
  }
  return Uint8Array.from(out);
}

/** Reads one name at OFFSET; returns it and the offset after it, or undefined when malformed. */
function readName(v: Uint8Array, offset: number): { name: string; next: number } | undefined {
  const labels: string[] = [];
  let at = offset;
  let next = -1;
  let hops = 0;
  for (;;) {
    if (at >= v.length) return undefined;
    const len = v[at]!;
    if (len === 0) {
      if (next < 0) next = at + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (at + 1 >= v.length) return undefined;
      const ptr = ((len & 0x3f) << 8) | v[at + 1]!;
      // pointers must go backwards, which also bounds the walk
      if (ptr >= at || ++hops > 127) return undefined;
      if (next < 0) next = at + 2;
      at = ptr;
      continue;
    }
    if ((len & 0xc0) !== 0 || at + 1 + len > v.length) return undefined;
    labels.push(String.fromCharCode(...v.subarray(at + 1, at + 1 + len)));
    at += 1 + len;
  }
  const name = labels.join('.');
  return name.length > 253 ? undefined : { name, next };
}

export function decodeDomainSearch(v: Uint8Array): string[] | undefined {
  const names: string[] = [];
  let at = 0;
  while (at < v.length) {
    const r = readName(v, at);
    if (r === undefined) return undefined;
    names.push(r.name);
    at = r.next;
  }
  return names;
}
