// The pure part of the kubelet stand-in's API side (kubelet-status.ts): which command runs a container's readiness
// probe inside the pod's network namespace, which Deployment and template an API Pod belongs to, and the status a
// kubelet writes for it. Table-tested in kubelet-readiness.test.ts.
import { canonicalJson, type KubeObject } from '@oooi/kube';

export interface Probe {
  readonly httpGet?: { readonly path?: string; readonly port: number | string; readonly scheme?: string };
  readonly tcpSocket?: { readonly port: number | string };
  readonly exec?: { readonly command?: readonly string[] };
  readonly timeoutSeconds?: number;
}

export interface ContainerSpec {
  readonly name: string;
  readonly image?: string;
  readonly restartPolicy?: string;
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[];
  readonly readinessProbe?: Probe;
}

export interface PodLike extends KubeObject {
  spec?: {
    nodeName?: string;
    containers?: ContainerSpec[];
    initContainers?: ContainerSpec[];
  };
  status?: {
    phase?: string;
    podIP?: string;
    conditions?: { type: string; status: string }[];
  };
}

/** The containers whose readiness makes the pod Ready: the app containers and the native sidecars. */
export function probedContainers(spec: PodLike['spec']): ContainerSpec[] {
  return [
    ...(spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ...(spec?.containers ?? []),
  ];
}

/**
 * The argv that runs C's readiness probe from inside the pod's network namespace against POD_IP (the kubelet probes
 * the pod's IP; an exec probe runs in the container: EXEC_IN prefixes it, e.g. `podman exec <id>`); undefined: no
 * probe (ready once running). A named port is looked up in the container's ports. Throws on a probe it cannot run.
 */
export function probeArgv(
  c: ContainerSpec,
  podIP: string,
  execIn: readonly string[],
): readonly string[] | undefined {
  const p = c.readinessProbe;
  if (p === undefined) return undefined;
  const timeout = String(p.timeoutSeconds ?? 1);
  const port = (x: number | string): number => {
    if (typeof x === 'number') return x;
    const found = c.ports?.find((cp) => cp.name === x)?.containerPort;
    if (found === undefined) throw new Error(`readinessProbe of ${c.name}: no port named ${x}`);
    return found;
  };
  if (p.httpGet) {
    const scheme = (p.httpGet.scheme ?? 'HTTP').toLowerCase();
    const url = `${scheme}://${podIP}:${port(p.httpGet.port)}${p.httpGet.path ?? '/'}`;
    // the kubelet: any status 200-399 is a success, a TLS certificate is not verified
    return ['curl', '-sk', '-o', '/dev/null', '--max-time', timeout, '--fail', url];
  }
  // a TCP connect, as the kubelet's; bash's /dev/tcp (no netcat on the rig's machine)
  if (p.tcpSocket)
    return ['timeout', timeout, 'bash', '-c', `: </dev/tcp/${podIP}/${port(p.tcpSocket.port)}`];
  if (p.exec?.command?.length) return [...execIn, ...p.exec.command];
  throw new Error(`readinessProbe of ${c.name}: neither httpGet, tcpSocket nor exec`);
}

type Named = { readonly name?: string; readonly image?: string };
export interface TemplateLike {
  readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> };
  readonly spec?: { readonly containers?: readonly Named[]; readonly initContainers?: readonly Named[] };
}

/**
 * What identifies the pod template a pod was made from, comparable between a Deployment's template and an API Pod
 * (which the apiserver defaults, so not its whole spec): each container's image and the template's annotations
 * (oooi's config hashes live there).
 */
export function templateKey(t: TemplateLike | undefined): string {
  const images = [...(t?.spec?.initContainers ?? []), ...(t?.spec?.containers ?? [])].map(
    (c: Named) => `${c.name ?? ''}=${c.image ?? ''}`,
  );
  return canonicalJson({ images, annotations: t?.metadata?.annotations ?? {} });
}

/** The Deployment a Pod belongs to: its ReplicaSet owner's name without the pod-template-hash suffix. */
export function deploymentOf(pod: PodLike): string | undefined {
  const rs = pod.metadata?.ownerReferences?.find((o) => o.kind === 'ReplicaSet')?.name;
  const hash = pod.metadata?.labels?.['pod-template-hash'];
  if (rs === undefined || hash === undefined || !rs.endsWith(`-${hash}`)) return undefined;
  return rs.slice(0, -(hash.length + 1));
}

const condition = (type: string, ok: boolean, now: string) => ({
  type,
  status: ok ? 'True' : 'False',
  lastTransitionTime: now,
});

/**
 * The status a kubelet writes for a pod: Running with its IP while its process runs (PODIP), else Pending; Ready and
 * ContainersReady as its probes say (a merge patch; undefined when POD says so already).
 */
export function statusPatch(
  pod: PodLike,
  podIP: string | undefined,
  ready: boolean,
  now: string,
): object | undefined {
  const phase = podIP === undefined ? 'Pending' : 'Running';
  const was = pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  if (pod.status?.phase === phase && pod.status.podIP === podIP && was === ready) return undefined;
  return {
    status: {
      phase,
      podIP: podIP ?? null,
      podIPs: podIP === undefined ? null : [{ ip: podIP }],
      conditions: [
        condition('PodScheduled', true, now),
        condition('Initialized', podIP !== undefined, now),
        condition('ContainersReady', ready, now),
        condition('Ready', ready, now),
      ],
    },
  };
}
