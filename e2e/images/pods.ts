// What the container tests share: the probes a Deployment's container declares, answered from inside its pod
// (the kubelet's HTTP probe against the pod IP), and the image's configured user as podman stores it.
import { rigBin, run, waitFor, type RunningPod } from '@oooi/rig';

interface ProbeLike {
  httpGet?: { path?: string; port: number | string; scheme?: string };
}
interface ContainerLike {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: ProbeLike;
  livenessProbe?: ProbeLike;
  securityContext?: Record<string, unknown>;
}
export interface DeploymentShape {
  spec: {
    template: {
      spec: { containers: ContainerLike[]; securityContext?: { runAsUser?: number; runAsGroup?: number } };
    };
  };
}

export function containerOf(d: unknown, name: string): ContainerLike {
  const c = (d as DeploymentShape).spec.template.spec.containers.find((x) => x.name === name);
  if (c === undefined) throw new Error(`the Deployment has no container ${name}`);
  return c;
}

/** The URL of CONTAINER's KIND probe on the pod IP (its httpGet port resolved through the container's ports). */
export function probeUrl(
  d: unknown,
  container: string,
  kind: 'readinessProbe' | 'livenessProbe',
  podIP: string,
): string {
  const c = containerOf(d, container);
  const get = c[kind]?.httpGet;
  if (get === undefined) throw new Error(`container ${container} has no httpGet ${kind}`);
  const port =
    typeof get.port === 'number' ? get.port : c.ports?.find((p) => p.name === get.port)?.containerPort;
  if (port === undefined)
    throw new Error(`container ${container}: ${kind} port ${get.port} is not a container port`);
  return `${(get.scheme ?? 'HTTP').toLowerCase()}://${podIP}:${port}${get.path ?? '/'}`;
}

/** Waits until CONTAINER's KIND probe answers 2xx inside the pod; fails at once if the container exits. */
export async function waitProbe(
  pod: RunningPod,
  d: unknown,
  container: string,
  kind: 'readinessProbe' | 'livenessProbe' = 'readinessProbe',
): Promise<void> {
  const url = probeUrl(d, container, kind, pod.podIP);
  const curl = await rigBin('curl');
  await waitFor(
    `${container} ${kind} ${url}`,
    async () => {
      const proc = pod.container(container).proc;
      if (!proc.alive()) throw new Error(`${container} exited:\n${proc.log().slice(-3000)}`);
      return (await pod.netns.exec([curl, '-sf', '-o', '/dev/null', url])).code === 0;
    },
    { timeoutMs: 90_000, everyMs: 250 },
  );
}

/** The user an image runs as when the pod does not say (`USER` of its Dockerfile). */
export async function imageUser(tag: string): Promise<string> {
  const r = await run(['podman', 'image', 'inspect', '--format', '{{.Config.User}}', tag]);
  if (r.code !== 0) throw new Error(`podman image inspect ${tag}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `podman kill --signal KILL`, then waits for the container's podman process to end. */
export async function killContainer(pod: RunningPod, container: string): Promise<void> {
  const c = pod.container(container);
  if (c.podman === undefined) throw new Error(`${container} does not run from its image`);
  const r = await run(['podman', 'kill', '--signal', 'KILL', c.podman]);
  if (r.code !== 0) throw new Error(`podman kill ${c.podman}: ${r.stderr}`);
  await waitFor(`${c.podman} to end`, () => Promise.resolve(!c.proc.alive()), {
    timeoutMs: 30_000,
    everyMs: 100,
  });
}
