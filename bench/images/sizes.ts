// The size of an image, two ways: its archive as `images.sh` writes it (dist/images/*.oci.tar, layers uncompressed)
// gzip-compressed, which is about what a registry stores and a node pulls; and unpacked, what podman's storage holds
// (`podman image inspect` .Size).
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { run } from '@oooi/rig';

/** Bytes of FILE once gzip-compressed (level 6, as registries' clients compress layers). */
export async function gzipSize(file: string): Promise<number> {
  let n = 0;
  await pipeline(
    createReadStream(file),
    createGzip({ level: 6 }),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        n += chunk.length;
        done();
      },
    }),
  );
  return n;
}

/** The unpacked size of image TAG in podman's storage. */
export async function unpackedSize(tag: string): Promise<number> {
  const r = await run(['podman', 'image', 'inspect', '--format', '{{.Size}}', tag]);
  if (r.code !== 0) throw new Error(`podman image inspect ${tag}: ${r.stderr}`);
  return Number(r.stdout.trim());
}

/** MB with one decimal (10^6 bytes). */
export const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
