// Generates the Envoy v3 TypeScript types in src/generated/ with buf + ts-proto from the .proto files that
// @grpc/grpc-js-xds ships. Only the files listed in PROTO_PATHS (and what they import) are generated.
// usage: tsx packages/envoy/scripts/generate.ts [--check]
//   --check: generate into a temporary folder and fail (exit 1) if src/generated differs from it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const pkgDir = join(__dirname, '..');
const depsDir = join(pkgDir, 'node_modules/@grpc/grpc-js-xds/deps');
const binDir = join(pkgDir, 'node_modules/.bin');
const outDir = join(pkgDir, 'src/generated');
const MODULES = ['envoy-api', 'xds', 'googleapis', 'protoc-gen-validate'] as const;

/** The Envoy API files whose messages we use; buf generates these and their imports. */
export const PROTO_PATHS = [
  'envoy/service/discovery/v3/ads.proto',
  'envoy/service/discovery/v3/discovery.proto',
  'envoy/config/listener/v3/listener.proto',
  'envoy/config/cluster/v3/cluster.proto',
  'envoy/config/endpoint/v3/endpoint.proto',
  'envoy/config/route/v3/route.proto',
  'envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy.proto',
  'envoy/extensions/filters/network/set_filter_state/v3/set_filter_state.proto',
  'envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager.proto',
  'envoy/extensions/filters/http/router/v3/router.proto',
  'envoy/extensions/filters/listener/tls_inspector/v3/tls_inspector.proto',
  'envoy/extensions/upstreams/http/v3/http_protocol_options.proto',
];

const TS_PROTO_OPTIONS = [
  'outputServices=generic-definitions',
  'env=node',
  'esModuleInterop=true',
  'outputTypeRegistry=true',
  'useDuration=string',
  'useExactTypes=false',
];

/** grpc-js-xds's validate.proto predates Envoy's use of StringRules.ignore_empty; buf refuses without it. */
function patchValidateProto(protoRoot: string): void {
  const file = join(protoRoot, 'protoc-gen-validate/validate/validate.proto');
  const text = readFileSync(file, 'utf8');
  if (/ignore_empty\s*=\s*26/.test(text)) return;
  const marker = 'message StringRules {';
  if (!text.includes(marker)) throw new Error(`${file}: no "${marker}" to patch`);
  writeFileSync(file, text.replace(marker, `${marker}\n    optional bool ignore_empty = 26;`));
}

/**
 * ts-proto 2.18.0 with useDuration=string and outputTypeRegistry=true emits a Duration.fromJSON that returns an
 * object without its `$type` (tsc error); add it. Fails loudly if the generated text no longer matches.
 */
function patchDurationFromJson(target: string): void {
  const file = join(target, 'google/protobuf/duration.ts');
  const text = readFileSync(file, 'utf8');
  const from = '    return { seconds, nanos };';
  if (!text.includes(from)) throw new Error(`${file}: no "${from.trim()}" to patch`);
  writeFileSync(file, text.replace(from, '    return { $type: Duration.$type, seconds, nanos };'));
}

function generateInto(target: string): void {
  const work = mkdtempSync(join(tmpdir(), 'oooi-envoy-gen-'));
  try {
    for (const m of MODULES) cpSync(join(depsDir, m), join(work, m), { recursive: true });
    patchValidateProto(work);
    writeFileSync(
      join(work, 'buf.yaml'),
      ['version: v2', 'modules:', ...MODULES.map((m) => `  - path: ${m}`), ''].join('\n'),
    );
    writeFileSync(
      join(work, 'buf.gen.yaml'),
      [
        'version: v2',
        'plugins:',
        `  - local: ${join(binDir, 'protoc-gen-ts_proto')}`,
        `    out: ${target}`,
        `    opt: [${TS_PROTO_OPTIONS.join(', ')}]`,
        '',
      ].join('\n'),
    );
    const args = ['generate', ...PROTO_PATHS.flatMap((p) => ['--path', join('envoy-api', p)])];
    execFileSync(join(binDir, 'buf'), args, { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] });
    patchDurationFromJson(target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function listFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)))
    .sort();
}

function differences(want: string, have: string): string[] {
  const a = listFiles(want);
  const b = listFiles(have);
  const out: string[] = [];
  for (const f of a) {
    if (!b.includes(f)) out.push(`missing: ${f}`);
    else if (!readFileSync(join(want, f)).equals(readFileSync(join(have, f)))) out.push(`differs: ${f}`);
  }
  for (const f of b) if (!a.includes(f)) out.push(`extra: ${f}`);
  return out;
}

function main(): void {
  const check = process.argv.includes('--check');
  const fresh = mkdtempSync(join(tmpdir(), 'oooi-envoy-out-'));
  try {
    generateInto(fresh);
    if (check) {
      const diff = differences(fresh, outDir);
      if (diff.length > 0) {
        console.error(
          `packages/envoy/src/generated is out of date (run pnpm generate):\n  ${diff.join('\n  ')}`,
        );
        process.exitCode = 1;
        return;
      }
      console.log(`packages/envoy/src/generated in sync (${listFiles(fresh).length} files)`);
      return;
    }
    rmSync(outDir, { recursive: true, force: true });
    cpSync(fresh, outDir, { recursive: true });
    console.log(
      `wrote ${listFiles(outDir).length} files to ${relative(process.cwd(), outDir) || dirname(outDir)}`,
    );
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

main();
