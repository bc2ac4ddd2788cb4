// Trims a bundle's source map to what a stack trace of the product needs: the product's own sources, one mapping per
// source line. The images run `node --enable-source-maps`, and Node turns the whole map into one array per mapping the
// first time a stack is formatted: esbuild's map of the controller bundle (930,000 mappings, 77 % of them in
// dependencies, and 5 MB of source text) held ~95 MiB of heap. Trimmed:
// - a frame in the product's own code maps to its TypeScript file and line (the column is that of the line's first
//   mapped token);
// - a frame in a dependency keeps its position in the bundle (its function name is there: names are not minified);
// - no `sourcesContent` (the sources are in the repository at the image's revision) and no `names`;
// - `sources` unchanged: it lists every input of the bundle, which is what the image's SBOM is made from
//   (scripts/sbom.ts).
// A source map's `mappings`: generated lines separated by `;`, segments by `,`, each segment 1, 4 or 5 base64 VLQ
// fields [generated column, source, original line, original column, name], each relative to the previous one (the
// column to the previous segment of the same line, the rest across the whole map).

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The VLQ fields of one segment. */
function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const d = DIGIT.get(c);
    if (d === undefined) throw new Error(`source map: ${JSON.stringify(c)} is not a base64 VLQ digit`);
    value += (d & 31) * 2 ** shift;
    if (d & 32) shift += 5;
    else {
      out.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  if (shift !== 0) throw new Error(`source map: segment ${JSON.stringify(text)} ends inside a number`);
  return out;
}

function encodeValue(n) {
  let v = n < 0 ? -n * 2 + 1 : n * 2;
  let out = '';
  do {
    let d = v % 32;
    v = Math.floor(v / 32);
    if (v > 0) d += 32;
    out += BASE64[d];
  } while (v > 0);
  return out;
}

/**
 * The map MAP (a parsed source map, version 3) trimmed as above; `isOwn(source)` says whether a `sources` entry is the
 * product's own (default: its path has no `node_modules/` in it).
 */
export function ownSourceMap(map, isOwn = (source) => !source.includes('node_modules/')) {
  if (map.version !== 3) throw new Error(`source map: version ${map.version}, not 3`);
  const own = map.sources.map((source) => isOwn(source));
  // where the input's segments point (absolute, carried across lines), and where the output's last one did
  const at = { src: 0, line: 0, col: 0 };
  const out = { src: 0, line: 0, col: 0 };
  const lines = map.mappings.split(';').map((generated) => {
    let genCol = 0;
    let outGenCol = 0;
    let last; // what the previous kept segment of this generated line maps to
    const kept = [];
    for (const text of generated === '' ? [] : generated.split(',')) {
      const f = decodeSegment(text);
      genCol += f[0];
      if (f.length >= 4) {
        at.src += f[1];
        at.line += f[2];
        at.col += f[3];
      }
      const mapped = f.length >= 4 && own[at.src] === true;
      const key = mapped ? `${at.src}:${at.line}` : 'unmapped';
      if (key === last) continue;
      last = key;
      let segment = encodeValue(genCol - outGenCol);
      outGenCol = genCol;
      if (mapped) {
        segment +=
          encodeValue(at.src - out.src) + encodeValue(at.line - out.line) + encodeValue(at.col - out.col);
        Object.assign(out, at);
      }
      kept.push(segment);
    }
    return kept.join(',');
  });
  const { sourcesContent: _content, names: _names, ...rest } = map;
  return { ...rest, names: [], mappings: lines.join(';') };
}
