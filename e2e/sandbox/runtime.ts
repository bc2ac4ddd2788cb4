// How the sandbox's kubelet stand-in runs oooi's pods. With podman (and buildah, runc, skopeo) on this machine:
// every container of the oooi Deployments from its image, as a kubelet would (images.sh builds them when missing or
// when an input changed since the last build; otherwise nothing is rebuilt), the DNS pods' CoreDNS from the rig's
// CoreDNS image (its upstream image cannot be pulled here; the pod shares one process namespace, and the sidecar's
// SIGUSR1 reaches CoreDNS only when both run under the pod's user) and Envoy as the rig's process beside its
// oooi-xds container. Without podman: every container as a process of this machine (the pod runner's image map).
// `podman` as the wanted runtime refuses to fall back.
import { findBin, rigCorednsImage, run, type PodmanRuntime, type RunningPod } from '@oooi/rig';
import { builtImages } from '../images/built';

export type RuntimeChoice = 'auto' | 'podman' | 'processes';

/** What the kubelet stand-in hands the pod runner, and one line saying which runtime it is. */
export type SandboxRuntime =
  | {
      readonly kind: 'podman';
      /** The local image that runs a Deployment's image (undefined: pulled when `pull` names its registry, else it runs as a process). */
      readonly image: (image: string) => string | undefined;
      /** Registries whose images are pulled and run as pulled (RunPodOptions.podman.pull). */
      readonly pull?: PodmanRuntime['pull'];
      readonly describe: string;
    }
  | { readonly kind: 'processes'; readonly describe: string };

const PODMAN_TOOLS = ['podman', 'buildah', 'runc', 'skopeo'];

/** The tools the image runtime needs that this machine lacks (pure but for the PATH lookup). */
export function missingPodmanTools(find: (name: string) => string | undefined = findBin): string[] {
  return PODMAN_TOOLS.filter((t) => find(t) === undefined);
}

/** Picks the runtime (CHOICE), building the images it needs. */
export async function sandboxRuntime(
  choice: RuntimeChoice,
  progress: (line: string) => void,
): Promise<SandboxRuntime> {
  const missing = choice === 'processes' ? [] : missingPodmanTools();
  if (choice === 'processes' || (choice === 'auto' && missing.length > 0)) {
    const why = choice === 'processes' ? 'as asked' : `${missing.join(', ')} not found`;
    return { kind: 'processes', describe: `oooi's pods run as processes of this machine (${why})` };
  }
  if (missing.length > 0)
    throw new Error(`the sandbox was asked for podman, but ${missing.join(', ')} not found`);
  progress('images: scripts/images.sh build, unless the images of these sources exist already');
  const built = builtImages({ showBuild: true });
  const coredns = await rigCorednsImage();
  const tags = [...built.tags.values(), coredns];
  return {
    kind: 'podman',
    image: (image) => built.image(image) ?? (/(^|\/)coredns\/coredns[:@]/.test(image) ? coredns : undefined),
    describe: `oooi's pods run from their images with podman (runc): ${tags.join(', ')}; Envoy as a process`,
  };
}

/** One container of an oooi pod as the sandbox saw it running. */
export interface ContainerView {
  /** `<namespace>/<Deployment>/<container>`. */
  readonly container: string;
  /** The podman container's full id and image, undefined when it runs as a process. */
  readonly id?: string;
  readonly image?: string;
  readonly running: boolean;
}

/** What podman says of each container of PODS now (`podman inspect`), or that it is a process. */
export async function inspectContainers(
  pods: readonly (readonly [string, RunningPod])[],
): Promise<ContainerView[]> {
  const out: ContainerView[] = [];
  for (const [deployment, pod] of pods) {
    for (const c of pod.containers) {
      const container = `${pod.namespace}/${deployment}/${c.name}`;
      if (c.podman === undefined) {
        out.push({ container, running: c.proc.alive() });
        continue;
      }
      const r = await run([
        'podman',
        'inspect',
        '--format',
        '{{.Id}} {{.ImageName}} {{.State.Running}}',
        c.podman,
      ]);
      const [id, image, running] = r.stdout.trim().split(' ');
      out.push({ container, id, image, running: r.code === 0 && running === 'true' });
    }
  }
  return out;
}
