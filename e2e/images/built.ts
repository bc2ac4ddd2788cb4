// The images the container tests run, built once per change: `scripts/images.sh build` runs when an image is missing
// from podman's storage or any input of the images changed since the last build (`images.sh inputs-hash`: the
// Dockerfiles, the build scripts, the lockfile and every tracked file of the workspace's packages; the last build's
// hash is kept beside the archives), so `scripts/test.sh`'s build step is the one build of a CI run. A
// machine without podman fails here, loudly: these tests never skip.
// OOOI_E2E_IMAGE_VERSION builds and runs the local images under another version (localhost/oooi-NAME:THAT), so that
// two checkouts testing at once on one machine do not overwrite each other's tags in podman's one storage; the
// chart's image names (OOOI_REGISTRY/oooi-NAME:OOOI_IMAGE_VERSION) still map to them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OOOI_IMAGE_VERSION, OOOI_REGISTRY } from '@oooi/controller';
import { repoRoot } from '@oooi/rig';

/** The version the local images are built and tagged with (OOOI_E2E_IMAGE_VERSION, default the chart's). */
export const LOCAL_IMAGE_VERSION = process.env.OOOI_E2E_IMAGE_VERSION || OOOI_IMAGE_VERSION;

export interface BuiltImages {
  /** NAME (controller, dhcp, xds, keepalived: `images.sh list`) → its local tag, localhost/oooi-NAME:VERSION. */
  readonly tags: ReadonlyMap<string, string>;
  /** The pod runner's podman mapping: the chart's image name (OOOI_REGISTRY/oooi-NAME:V) → the local tag. */
  readonly image: (image: string) => string | undefined;
}

function need(cmd: string): void {
  if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0) {
    throw new Error(
      `${cmd} not found: the image tests need podman, buildah, runc and skopeo (e2e/rig/scripts/install.sh apt installs them)`,
    );
  }
}

/**
 * The timeout of the hooks that may build: a cold build (debootstrap, the Node base, the images) took 7 min on a
 * busy 2-CPU machine.
 */
export const BUILD_TIMEOUT_MS = 1_800_000;

let built: BuiltImages | undefined;

/**
 * Builds the images (unless already built from these inputs) and returns their tags. `showBuild`: the build's
 * progress goes to this process's stderr (the sandbox) instead of into the error message of a failed build.
 */
export function builtImages(o: { readonly showBuild?: boolean } = {}): BuiltImages {
  if (built !== undefined) return built;
  for (const c of ['podman', 'buildah', 'runc', 'skopeo']) need(c);
  const script = join(repoRoot, 'scripts/images.sh');
  const names = execFileSync(script, ['list'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+/)[0]!);
  const tags = new Map(names.map((n) => [n, `localhost/oooi-${n}:${LOCAL_IMAGE_VERSION}`]));
  const stamp = join(repoRoot, 'dist/images', `.inputs-${LOCAL_IMAGE_VERSION}.sha256`);
  const hash = execFileSync(script, ['inputs-hash'], { encoding: 'utf8' }).trim();
  const present = [...tags.values()].every((t) => spawnSync('podman', ['image', 'exists', t]).status === 0);
  if (!present || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash) {
    const res = spawnSync(script, ['build', '--version', LOCAL_IMAGE_VERSION], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', o.showBuild === true ? 'inherit' : 'pipe'],
    });
    if (res.status !== 0)
      throw new Error(`scripts/images.sh build failed:\n${(res.stderr ?? '(above)').slice(-4000)}`);
  }
  const prefix = `${OOOI_REGISTRY}/`;
  built = {
    tags,
    image: (image) => {
      if (!image.startsWith(prefix)) return undefined;
      const m = /^oooi-([a-z0-9-]+):(.+)$/.exec(image.slice(prefix.length));
      return m && m[2] === OOOI_IMAGE_VERSION ? tags.get(m[1]!) : undefined;
    },
  };
  return built;
}
