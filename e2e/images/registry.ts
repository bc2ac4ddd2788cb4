// A real container registry for the image tests: the CNCF distribution server as Debian packages it
// (`docker-registry`, the rig's apt piece), on 127.0.0.1 at a free port, plain HTTP, its storage and config file in
// a directory of the test's own; and what it serves, asked over its HTTP API (the manifest digest of a tag).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, rigBin, waitFor, type NetScope, type TrackedProc } from '@oooi/rig';

export interface Registry {
  /** `127.0.0.1:PORT`: the registry part of an image reference. */
  readonly host: string;
  readonly proc: TrackedProc;
  /** The digest of the manifest the registry serves for NAME:TAG (its Docker-Content-Digest). */
  manifestDigest(name: string, tag: string): Promise<string>;
}

/** The registry's config (YAML): filesystem storage under DIR, HTTP on 127.0.0.1:PORT, no access log. */
export function registryConfig(dir: string, port: number): string {
  return [
    'version: 0.1',
    'log:',
    '  level: warn',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(dir, 'data')}`,
    'http:',
    `  addr: 127.0.0.1:${port}`,
    '',
  ].join('\n');
}

/** Starts the registry (a process of SCOPE, stopped with it) and waits until its /v2/ answers. */
export async function startRegistry(scope: NetScope, dir: string): Promise<Registry> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'config.yml');
  writeFileSync(config, registryConfig(dir, port));
  const proc = scope.spawn([await rigBin('docker-registry'), 'serve', config], {
    label: 'registry',
    logFile: join(dir, 'registry.log'),
  });
  const host = `127.0.0.1:${port}`;
  await waitFor(
    `the registry at ${host}`,
    async () => {
      if (!proc.alive()) throw new Error(`docker-registry exited:\n${proc.log().slice(-2000)}`);
      return (await fetch(`http://${host}/v2/`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 30_000, everyMs: 200 },
  );
  return {
    host,
    proc,
    manifestDigest: async (name, tag) => {
      const res = await fetch(`http://${host}/v2/${name}/manifests/${tag}`, {
        method: 'HEAD',
        headers: {
          accept: [
            'application/vnd.oci.image.manifest.v1+json',
            'application/vnd.oci.image.index.v1+json',
            'application/vnd.docker.distribution.manifest.v2+json',
          ].join(', '),
        },
      });
      const digest = res.headers.get('docker-content-digest');
      if (res.status !== 200 || digest === null)
        throw new Error(`registry ${host}: ${name}:${tag}: HTTP ${res.status}`);
      return digest;
    },
  };
}
