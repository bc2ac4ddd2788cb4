// Pod and container security contexts of our workloads: the "restricted" Pod Security Standard (non-root, no
// privilege escalation, read-only root, RuntimeDefault seccomp, every capability dropped) plus what the one
// workload needs.
//
// Low ports without root: the pod sets the namespaced safe sysctl net.ipv4.ip_unprivileged_port_start to its lowest
// port, so the process binds it as a non-root user whatever the runtime does with capabilities (a non-root process
// gets no ambient capabilities, so an added NET_BIND_SERVICE alone does not reach a binary without a file
// capability). A workload whose binary carries a file capability must keep that capability in its bounding set:
// the kernel refuses to exec a binary whose file capabilities exceed it (upstream CoreDNS: exit 126 with drop ALL
// alone). See docs/architecture.md, "Ports 53 and 67 without root".

export const UNPRIVILEGED_PORT_SYSCTL = 'net.ipv4.ip_unprivileged_port_start';

export interface PodSecurityOptions {
  /** The non-root user (and group) the workload runs as. */
  readonly uid: number;
  /** The lowest port the pod binds; below 1024 the pod sets the unprivileged-port sysctl to it. */
  readonly lowestPort: number;
}

/** Pod-level security: non-root, RuntimeDefault seccomp, and the low-port sysctl when the port needs it. */
export function podSecurityContext(o: PodSecurityOptions): Record<string, unknown> {
  return {
    runAsNonRoot: true,
    runAsUser: o.uid,
    runAsGroup: o.uid,
    seccompProfile: { type: 'RuntimeDefault' },
    ...(o.lowestPort < 1024
      ? { sysctls: [{ name: UNPRIVILEGED_PORT_SYSCTL, value: String(o.lowestPort) }] }
      : {}),
  };
}

/** Capabilities a workload may keep; every other one is dropped. */
export type Capability = 'NET_BIND_SERVICE' | 'NET_RAW' | 'NET_ADMIN';

/** Container-level security: every capability dropped but the ones this workload lists (none by default). */
export function containerSecurityContext(keep: readonly Capability[] = []): Record<string, unknown> {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'], ...(keep.length > 0 ? { add: [...keep] } : {}) },
    readOnlyRootFilesystem: true,
  };
}
