// Local images of the rig's peers, for pods that run every container with podman: their upstream images cannot be
// pulled here, so each is made from the rig's own binary, laid out as the upstream image is. CoreDNS
// (docker.io/coredns/coredns): the static binary at /coredns, ENTRYPOINT ["/coredns"], WORKDIR /, the distroless
// nonroot user 65532. Not reproduced: the upstream binary's file capability (cap_net_bind_service), so a pod
// without its unprivileged-port sysctl fails here at bind() where upstream it would run (with NET_BIND_SERVICE in
// the bounding set). Built once per version (seconds: one COPY, no RUN), tagged localhost/oooi-rig-<peer>:<version>.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rigBin } from '../bins';
import { versions } from '../config';
import { run } from '../proc';

/** The local tag of the rig's CoreDNS image. */
export function rigCorednsTag(): string {
  return `localhost/oooi-rig-coredns:${versions().coredns}`;
}

/** The rig's CoreDNS as an image (built when missing); returns its tag. */
export async function rigCorednsImage(): Promise<string> {
  const tag = rigCorednsTag();
  if ((await run(['podman', 'image', 'exists', tag])).code === 0) return tag;
  const dir = await mkdtemp(join(tmpdir(), 'oooi-rig-coredns-'));
  try {
    await copyFile(await rigBin('coredns'), join(dir, 'coredns'));
    await writeFile(
      join(dir, 'Containerfile'),
      [
        'FROM scratch',
        'COPY coredns /coredns',
        'USER 65532:65532',
        'WORKDIR /',
        'EXPOSE 53 53/udp',
        'ENTRYPOINT ["/coredns"]',
        '',
      ].join('\n'),
    );
    const r = await run(
      ['podman', 'build', '--quiet', '--tag', tag, '--file', join(dir, 'Containerfile'), dir],
      {
        timeoutMs: 300_000,
      },
    );
    if (r.code !== 0) throw new Error(`rig: podman build ${tag}: ${r.stderr.trim()}`);
    return tag;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
