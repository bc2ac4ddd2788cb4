// The pod runner's container runtime: a container of the pod run from its image with podman (runc) inside the pod's
// network namespace, as the kubelet would run it: the container's command (ENTRYPOINT) and args, env, workingDir,
// its volumes mounted at their mountPaths, and the pod's and container's securityContext mapped onto podman's
// options (user and group, fsGroup and supplemental groups, sysctls, capabilities as a pod's process gets them,
// no_new_privs, a read-only root filesystem, seccomp) and shareProcessNamespace. Whatever it cannot map faithfully is an error naming the field, never silently dropped.
// podmanRunArgv is pure; the runner (runner.ts) prepares the volumes and starts the process.

/** The securityContext fields of a pod (spec.template.spec.securityContext). */
export interface PodSecurityLike {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  fsGroup?: number;
  fsGroupChangePolicy?: string;
  supplementalGroups?: number[];
  sysctls?: { name: string; value: string }[];
  seccompProfile?: { type: string; localhostProfile?: string };
}

/** The securityContext fields of a container. */
export interface ContainerSecurityLike {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string; localhostProfile?: string };
}

const podFields = new Set([
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
  'fsGroup',
  'fsGroupChangePolicy',
  'supplementalGroups',
  'sysctls',
  'seccompProfile',
]);
const containerFields = new Set([
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
  'allowPrivilegeEscalation',
  'privileged',
  'readOnlyRootFilesystem',
  'capabilities',
  'seccompProfile',
]);

/** The rlimits podman sets must not exceed this session's (no CAP_SYS_RESOURCE); crun refuses hybrid cgroups. */
export const PODMAN_BASE_OPTS = [
  '--runtime',
  'runc',
  '--ulimit',
  'nofile=1024:1024',
  '--ulimit',
  'nproc=1024:1024',
];

export interface PodmanMount {
  /** The directory or file on this machine. */
  readonly source: string;
  /** The mountPath in the container. */
  readonly target: string;
  readonly readOnly: boolean;
}

export interface PodmanContainer {
  /** The podman container name (unique on this machine). */
  readonly name: string;
  /** The local image to run. */
  readonly image: string;
  /** The image's configured user (`podman image inspect` .Config.User), for runAsNonRoot without runAsUser. */
  readonly imageUser: string;
  /** /run/netns/<name>: the pod's network namespace. */
  readonly netnsPath: string;
  /**
   * The pod shares one process namespace (spec.shareProcessNamespace): the container joins this machine's, where
   * the pod's other containers (from images or as processes) run too, so a PID one writes means the same process
   * to another and a signal between them is checked by user as in a pod.
   */
  readonly sharePid?: boolean;
  readonly hostname: string;
  readonly command?: readonly string[];
  readonly args: readonly string[];
  readonly env: readonly (readonly [string, string])[];
  readonly workingDir?: string;
  readonly mounts: readonly PodmanMount[];
  readonly pod: PodSecurityLike;
  readonly container: ContainerSecurityLike;
  /** Where: for error messages ("spec.template.spec.containers[0]"). */
  readonly where: string;
}

function unknownFields(obj: object, allowed: Set<string>, where: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.has(k)) throw new Error(`${where}.${k}: not supported by the pod runner's podman runtime`);
  }
}

function seccomp(p: { type: string } | undefined, where: string): string[] {
  if (p === undefined || p.type === 'RuntimeDefault') return [];
  if (p.type === 'Unconfined') return ['--security-opt', 'seccomp=unconfined'];
  throw new Error(`${where}.seccompProfile.type ${p.type}: not supported by the pod runner's podman runtime`);
}

function nonRootUser(c: PodmanContainer): boolean {
  const uid = c.container.runAsUser ?? c.pod.runAsUser ?? c.imageUser.split(':')[0];
  return uid !== undefined && uid !== '' && uid !== 0 && uid !== '0' && uid !== 'root';
}

/** The effective user: the container's runAsUser, else the pod's, else the image's (refused when runAsNonRoot). */
function userArgs(c: PodmanContainer): string[] {
  const uid = c.container.runAsUser ?? c.pod.runAsUser;
  const gid = c.container.runAsGroup ?? c.pod.runAsGroup;
  const nonRoot = c.container.runAsNonRoot ?? c.pod.runAsNonRoot ?? false;
  if (uid === undefined) {
    // the kubelet's check: a numeric non-zero image user, or it refuses to start the container
    const imageUid = c.imageUser.split(':')[0] ?? '';
    if (nonRoot && !/^[1-9]\d*$/.test(imageUid)) {
      throw new Error(
        `${c.where}: runAsNonRoot and the image's user "${c.imageUser}" is not a numeric non-root user`,
      );
    }
    return gid === undefined ? [] : ['--user', `${imageUid || '0'}:${gid}`];
  }
  if (nonRoot && uid === 0) throw new Error(`${c.where}: runAsNonRoot with runAsUser 0`);
  return ['--user', gid === undefined ? String(uid) : `${uid}:${gid}`];
}

/** The `podman run` argv for one container (pure). */
export function podmanRunArgv(c: PodmanContainer): string[] {
  unknownFields(c.pod, podFields, 'spec.template.spec.securityContext');
  unknownFields(c.container, containerFields, `${c.where}.securityContext`);
  if (c.container.privileged === true) {
    throw new Error(
      `${c.where}.securityContext.privileged: not supported by the pod runner's podman runtime`,
    );
  }
  const sec: string[] = [...userArgs(c)];
  for (const g of [
    ...(c.pod.fsGroup !== undefined ? [c.pod.fsGroup] : []),
    ...(c.pod.supplementalGroups ?? []),
  ]) {
    sec.push('--group-add', String(g));
  }
  for (const s of c.pod.sysctls ?? []) sec.push('--sysctl', `${s.name}=${s.value}`);
  sec.push(...seccomp(c.container.seccompProfile ?? c.pod.seccompProfile, `${c.where}.securityContext`));
  for (const cap of c.container.capabilities?.drop ?? []) sec.push('--cap-drop', cap);
  // Kubernetes' runtimes put added capabilities in the bounding set only: a non-root process gets none of them
  // (no ambient set) unless its binary carries file capabilities. podman would make them effective (ambient) for a
  // non-root user, so there they are not passed: as in a pod, UDP 67 then binds through the sysctl or not at all.
  if (!nonRootUser(c)) for (const cap of c.container.capabilities?.add ?? []) sec.push('--cap-add', cap);
  if (c.container.allowPrivilegeEscalation === false) sec.push('--security-opt', 'no-new-privileges');
  // Kubernetes mounts nothing writable for a read-only root: no tmpfs on /tmp, /run, /var/tmp (podman's default)
  if (c.container.readOnlyRootFilesystem === true) sec.push('--read-only', '--read-only-tmpfs=false');
  const argv = [
    'run',
    '--rm',
    '--pull=never',
    '--name',
    c.name,
    '--hostname',
    c.hostname,
    ...PODMAN_BASE_OPTS,
    '--network',
    `ns:${c.netnsPath}`,
    ...(c.sharePid === true ? ['--pid', 'host'] : []),
    ...sec,
    ...c.env.flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...c.mounts.flatMap((m) => ['--volume', `${m.source}:${m.target}${m.readOnly ? ':ro' : ''}`]),
    ...(c.workingDir !== undefined ? ['--workdir', c.workingDir] : []),
    ...(c.command !== undefined ? ['--entrypoint', JSON.stringify(c.command)] : []),
    c.image,
    ...c.args,
  ];
  return argv;
}
