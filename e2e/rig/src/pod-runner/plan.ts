// From a Deployment (+ its ConfigMaps) to what the pod runner will start (pure).
import {
  MULTUS_ANNOTATION,
  parseNetworksAnnotation,
  resolveEnv,
  SECRET_VOLUME_PREFIX,
  type ConfigMapLike,
  type ContainerLike,
  type ContainerPlan,
  type DeploymentLike,
  type EnvContext,
  type KeyToPath,
  type PodPlan,
  type VolumePlan,
} from './spec';

function volumePlans(d: DeploymentLike): VolumePlan[] {
  const vols = d.spec?.template?.spec?.volumes ?? [];
  return vols.map((v, i) => {
    if (v.configMap !== undefined) {
      const cm = v.configMap;
      return {
        kind: 'configMap',
        name: v.name,
        configMap: cm.name,
        ...(cm.items !== undefined ? { items: cm.items } : {}),
        defaultMode: cm.defaultMode ?? 0o644,
        optional: cm.optional === true,
      };
    }
    if (v.secret !== undefined) {
      // served like a ConfigMap volume from the Secret given to runPod (`secrets`, spec.ts secretSource)
      const sec = v.secret;
      return {
        kind: 'configMap',
        name: v.name,
        configMap: `${SECRET_VOLUME_PREFIX}${sec.secretName}`,
        ...(sec.items !== undefined ? { items: sec.items } : {}),
        defaultMode: sec.defaultMode ?? 0o644,
        optional: sec.optional === true,
      };
    }
    if (v.emptyDir !== undefined) return { kind: 'emptyDir', name: v.name };
    if (v.persistentVolumeClaim !== undefined) {
      return { kind: 'persistentVolumeClaim', name: v.name, claimName: v.persistentVolumeClaim.claimName };
    }
    throw new Error(
      `spec.template.spec.volumes[${i}] (${v.name}): only configMap, secret, emptyDir and persistentVolumeClaim volumes are supported`,
    );
  });
}

function startupProbe(c: ContainerLike, where: string): { startupProbe?: { path: string; port: number } } {
  const get = c.startupProbe?.httpGet;
  if (c.startupProbe === undefined) return {};
  if (get === undefined)
    throw new Error(`${where}.startupProbe: only httpGet is supported by the pod runner`);
  const port =
    typeof get.port === 'number' ? get.port : c.ports?.find((p) => p.name === get.port)?.containerPort;
  if (port === undefined)
    throw new Error(`${where}.startupProbe.httpGet.port: no container port ${get.port}`);
  return { startupProbe: { path: get.path ?? '/', port } };
}

/** Reads the Deployment's pod template. `podIP` feeds `status.podIP` in env. */
export function planPod(
  d: DeploymentLike,
  configMaps: readonly ConfigMapLike[],
  ids: { podIP: string; nodeName: string },
): PodPlan {
  const name = d.metadata?.name;
  if (name === undefined || name === '') throw new Error('metadata.name: missing');
  const namespace = d.metadata?.namespace ?? 'default';
  const tmpl = d.spec?.template;
  const containers = tmpl?.spec?.containers ?? [];
  if (containers.length === 0) throw new Error('spec.template.spec.containers: empty');
  const volumes = volumePlans(d);
  const cms = new Map(configMaps.map((c) => [c.metadata?.name ?? '', c]));
  const ctx: EnvContext = {
    podName: `${name}-rig`,
    namespace,
    podIP: ids.podIP,
    nodeName: ids.nodeName,
    serviceAccountName: tmpl?.spec?.serviceAccountName ?? 'default',
    configMaps: cms,
  };
  const inits = tmpl?.spec?.initContainers ?? [];
  inits.forEach((c, i) => {
    if (c.restartPolicy !== 'Always')
      throw new Error(
        `spec.template.spec.initContainers[${i}] (${c.name}): only native sidecars (restartPolicy: Always) are supported by the pod runner`,
      );
  });
  const all = [
    ...inits.map((c, i) => ({ c, where: `spec.template.spec.initContainers[${i}]` })),
    ...containers.map((c, i) => ({ c, where: `spec.template.spec.containers[${i}]` })),
  ];
  // Native sidecars first, in order, as the kubelet starts them; then the containers.
  const plans: ContainerPlan[] = all.map(({ c, where }) => {
    for (const m of c.volumeMounts ?? []) {
      if (!volumes.some((v) => v.name === m.name))
        throw new Error(`${where}.volumeMounts: no volume named ${m.name}`);
    }
    return {
      name: c.name,
      image: c.image,
      ...(c.command !== undefined && c.command.length > 0 ? { command: c.command } : {}),
      args: c.args ?? [],
      env: resolveEnv(c, ctx, where),
      ...(c.workingDir !== undefined && c.workingDir !== '' ? { workingDir: c.workingDir } : {}),
      mounts: (c.volumeMounts ?? []).map((m) => ({
        volume: m.name,
        mountPath: m.mountPath,
        ...(m.subPath !== undefined && m.subPath !== '' ? { subPath: m.subPath } : {}),
        ...(m.readOnly === true ? { readOnly: true } : {}),
      })),
      ...startupProbe(c, where),
      ...(c.securityContext !== undefined ? { securityContext: c.securityContext } : {}),
    };
  });
  return {
    name: ctx.podName,
    namespace,
    labels: tmpl?.metadata?.labels ?? {},
    containers: plans,
    volumes,
    networks: parseNetworksAnnotation(tmpl?.metadata?.annotations?.[MULTUS_ANNOTATION]),
    securityContext: tmpl?.spec?.securityContext ?? {},
    serviceAccountName: ctx.serviceAccountName,
    shareProcessNamespace: tmpl?.spec?.shareProcessNamespace === true,
  };
}

/** The files of a ConfigMap volume: relative path → content and mode (items select and rename keys). */
export function volumeFiles(
  v: Extract<VolumePlan, { kind: 'configMap' }>,
  cm: ConfigMapLike | undefined,
): Map<string, { data: Buffer; mode: number }> {
  const out = new Map<string, { data: Buffer; mode: number }>();
  if (cm === undefined) {
    if (v.optional) return out;
    throw new Error(`volume ${v.name}: ConfigMap ${v.configMap} not given`);
  }
  const all = new Map<string, Buffer>();
  for (const [k, s] of Object.entries(cm.data ?? {})) all.set(k, Buffer.from(s, 'utf8'));
  for (const [k, s] of Object.entries(cm.binaryData ?? {})) all.set(k, Buffer.from(s, 'base64'));
  const items: KeyToPath[] = v.items ?? [...all.keys()].map((key) => ({ key, path: key }));
  for (const it of items) {
    const data = all.get(it.key);
    if (data === undefined) {
      if (v.optional) continue;
      throw new Error(`volume ${v.name}: ConfigMap ${v.configMap} has no key ${it.key}`);
    }
    if (it.path.startsWith('/') || it.path.split('/').includes('..')) {
      throw new Error(`volume ${v.name}: bad item path ${it.path}`);
    }
    out.set(it.path, { data, mode: it.mode ?? v.defaultMode });
  }
  return out;
}

export interface PathMapping {
  /** A path as the container sees it (a mountPath). */
  readonly from: string;
  /** Where it really is on this machine. */
  readonly to: string;
}

/**
 * Rewrites every occurrence of a mapped path in S (as a whole path prefix: followed by "/", the end, or a
 * character that cannot continue a path component), longest mapping first. Pure.
 */
export function rewritePaths(s: string, mappings: readonly PathMapping[]): string {
  const sorted = [...mappings].sort((a, b) => b.from.length - a.from.length);
  if (sorted.length === 0) return s;
  const esc = (p: string): string => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(
    `(^|[^A-Za-z0-9_./-])(${sorted.map((m) => esc(m.from)).join('|')})(?=$|[^A-Za-z0-9_.-])`,
    'g',
  );
  return s.replace(
    re,
    (_m, pre: string, path: string) => `${pre}${sorted.find((m) => m.from === path)?.to ?? path}`,
  );
}
