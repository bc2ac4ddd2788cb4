// Bundles one process entry point into a single CommonJS file for its container image (see Dockerfile.*).
// usage: node scripts/bundle.mjs ENTRY OUTFILE   (run from the package directory)
import { build } from 'esbuild';

const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  console.error('usage: bundle.mjs ENTRY OUTFILE');
  process.exit(2);
}
const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundled ${entry} -> ${outfile} (${(bytes / 1024).toFixed(0)} KiB)`);
