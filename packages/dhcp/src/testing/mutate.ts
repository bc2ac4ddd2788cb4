// A seeded packet mutator for fuzzing (unit slice, e2e slice and bench/dhcp/fuzz.ts share it): from a corpus
// of real request bytes it makes bit flips, byte writes, truncations, extensions, option-length lies,
// duplicated or spliced option areas. Deterministic for a seed (xorshift32; no Math.random).

export class Xorshift {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  below(n: number): number {
    return this.next() % n;
  }
}

const OPTIONS_AT = 240;

export function mutate(corpus: readonly Uint8Array[], rnd: Xorshift): Uint8Array {
  const base = corpus[rnd.below(corpus.length)]!;
  let b: Uint8Array = base.slice();
  const rounds = 1 + rnd.below(6);
  for (let r = 0; r < rounds; r++) {
    switch (rnd.below(9)) {
      case 0: // bit flip
        b[rnd.below(b.length)]! ^= 1 << rnd.below(8);
        break;
      case 1: // byte write, biased to the header fields and the options start
        b[rnd.below(2) === 0 ? rnd.below(Math.min(b.length, OPTIONS_AT + 16)) : rnd.below(b.length)] =
          rnd.below(256);
        break;
      case 2: // truncate
        b = b.slice(0, rnd.below(b.length + 1));
        break;
      case 3: {
        // append random options (possibly lying about their length)
        const extra = Uint8Array.from({ length: 1 + rnd.below(300) }, () => rnd.below(256));
        const out = new Uint8Array(b.length + extra.length);
        out.set(b);
        out.set(extra, b.length);
        b = out;
        break;
      }
      case 4: // an option length byte set to something large
        if (b.length > OPTIONS_AT + 2)
          b[OPTIONS_AT + 1 + rnd.below(b.length - OPTIONS_AT - 1)] = 200 + rnd.below(56);
        break;
      case 5: // option overload flag with random sname/file content
        if (b.length > OPTIONS_AT + 3) {
          b.set([52, 1, rnd.below(5)], OPTIONS_AT + rnd.below(Math.max(1, b.length - OPTIONS_AT - 3)));
          for (let i = 0; i < 20; i++) b[44 + rnd.below(192)] = rnd.below(256);
        }
        break;
      case 6: {
        // splice the option area of another corpus packet in
        const other = corpus[rnd.below(corpus.length)]!;
        const cut = OPTIONS_AT + rnd.below(Math.max(1, other.length - OPTIONS_AT));
        const out = new Uint8Array(Math.min(b.length, OPTIONS_AT) + other.length - cut);
        out.set(b.subarray(0, Math.min(b.length, OPTIONS_AT)));
        out.set(other.subarray(cut), Math.min(b.length, OPTIONS_AT));
        b = out;
        break;
      }
      case 7: // message type set to any value
        if (b.length > OPTIONS_AT + 2) b.set([53, 1, rnd.below(12)], OPTIONS_AT);
        break;
      default: // random ciaddr/giaddr/chaddr bytes
        for (let i = 0; i < 4; i++) b[12 + rnd.below(32)] = rnd.below(256);
    }
  }
  return b;
}
