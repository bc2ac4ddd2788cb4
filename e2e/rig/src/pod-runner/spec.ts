// Reads the parts of a Deployment the pod runner honours (pure): containers, native sidecars (initContainers with
// restartPolicy Always, and their startupProbe), ConfigMap/emptyDir volumes, env (literal, downward API, ConfigMap
// keys), the Multus static-IP annotation, and the securityContexts (which only the podman runtime applies,
// podman.ts). Anything it cannot run
// faithfully is an error naming the field, never silently ignored.

export const MULTUS_ANNOTATION = 'k8s.v1.cni.cncf.io/networks';

import type { ContainerSecurityLike, PodSecurityLike } from './podman';

/** The subset of core/v1 and apps/v1 shapes read here (all optional: input is untyped JSON). */
export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}
/** A Secret's volume is served like a ConfigMap's whose name is this prefix + the Secret's name (plan.ts). */
export const SECRET_VOLUME_PREFIX = 'secret:';

/** A Secret as the pod runner needs it: its name and its (base64) data. */
export interface SecretLike {
  metadata?: { name?: string; namespace?: string };
  data?: Record<string, string>;
}

/** SECRET as the ConfigMap-like source of its volume (its data as binaryData, under the prefixed name). */
export function secretSource(secret: SecretLike): ConfigMapLike {
  return {
    metadata: { name: `${SECRET_VOLUME_PREFIX}${secret.metadata?.name ?? ''}` },
    binaryData: { ...(secret.data ?? {}) },
  };
}

export interface ConfigMapLike {
  metadata?: { name?: string; namespace?: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}
interface EnvVarLike {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: unknown;
    resourceFieldRef?: unknown;
  };
}
export interface ContainerLike {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVarLike[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; prefix?: string; secretRef?: unknown }[];
  workingDir?: string;
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
  /** `Always` on an init container: a native sidecar. */
  restartPolicy?: string;
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: { httpGet?: { path?: string; port: number | string } };
  securityContext?: ContainerSecurityLike;
}
interface VolumeLike {
  name: string;
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  emptyDir?: unknown;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
}
export interface DeploymentLike {
  metadata?: { name?: string; namespace?: string };
  spec?: {
    template?: {
      metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> };
      spec?: {
        initContainers?: ContainerLike[];
        containers?: ContainerLike[];
        volumes?: VolumeLike[];
        serviceAccountName?: string;
        shareProcessNamespace?: boolean;
        securityContext?: PodSecurityLike;
      };
    };
  };
}

export type VolumePlan =
  | {
      kind: 'configMap';
      name: string;
      configMap: string;
      items?: KeyToPath[];
      defaultMode: number;
      optional: boolean;
    }
  | { kind: 'emptyDir'; name: string }
  | { kind: 'persistentVolumeClaim'; name: string; claimName: string };

export interface MountPlan {
  readonly volume: string;
  readonly mountPath: string;
  readonly subPath?: string;
  readonly readOnly?: boolean;
}

export interface ContainerPlan {
  readonly name: string;
  readonly image: string;
  readonly command?: readonly string[];
  readonly args: readonly string[];
  /** Environment in declaration order, values resolved (before mount-path rewriting and $(VAR) expansion). */
  readonly env: readonly [string, string][];
  readonly workingDir?: string;
  readonly mounts: readonly MountPlan[];
  /** A native sidecar's startupProbe (HTTP GET on the pod IP): the containers after it start once it answers 200. */
  readonly startupProbe?: { readonly path: string; readonly port: number };
  readonly securityContext?: ContainerSecurityLike;
}

export interface MultusAttachment {
  readonly name: string;
  readonly namespace?: string;
  readonly ips: readonly string[];
  readonly interface?: string;
}

export interface PodPlan {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly containers: readonly ContainerPlan[];
  readonly volumes: readonly VolumePlan[];
  readonly networks: readonly MultusAttachment[];
  readonly securityContext: PodSecurityLike;
  readonly serviceAccountName: string;
  /** spec.shareProcessNamespace: the containers see (and may signal) each other's processes. */
  readonly shareProcessNamespace: boolean;
}

/** The Multus annotation: a JSON list (`[{"name":…,"ips":[…],"interface":…}]`) or "ns/name@if,…" (no IPs). */
export function parseNetworksAnnotation(value: string | undefined): MultusAttachment[] {
  if (value === undefined || value.trim() === '') return [];
  const v = value.trim();
  if (!v.startsWith('[')) {
    return v.split(',').map((s) => {
      const [ref = '', iface] = s.trim().split('@');
      const [a, b] = ref.split('/');
      const base = b === undefined ? { name: a ?? '', ips: [] } : { name: b, namespace: a ?? '', ips: [] };
      return iface === undefined ? base : { ...base, interface: iface };
    });
  }
  const list = JSON.parse(v) as unknown;
  if (!Array.isArray(list)) throw new Error(`${MULTUS_ANNOTATION}: not a JSON list`);
  return list.map((e: { name?: unknown; namespace?: unknown; ips?: unknown; interface?: unknown }, i) => {
    if (typeof e.name !== 'string') throw new Error(`${MULTUS_ANNOTATION}[${i}].name: missing`);
    const ips = Array.isArray(e.ips) ? e.ips.map(String) : [];
    return {
      name: e.name,
      ips,
      ...(typeof e.namespace === 'string' ? { namespace: e.namespace } : {}),
      ...(typeof e.interface === 'string' ? { interface: e.interface } : {}),
    };
  });
}

export interface EnvContext {
  readonly podName: string;
  readonly namespace: string;
  readonly podIP: string;
  readonly nodeName: string;
  readonly serviceAccountName: string;
  readonly configMaps: ReadonlyMap<string, ConfigMapLike>;
}

function fieldRef(path: string, ctx: EnvContext, where: string): string {
  switch (path) {
    case 'metadata.name':
      return ctx.podName;
    case 'metadata.namespace':
      return ctx.namespace;
    case 'status.podIP':
    case 'status.podIPs':
    case 'status.hostIP':
      return ctx.podIP;
    case 'spec.nodeName':
      return ctx.nodeName;
    case 'spec.serviceAccountName':
      return ctx.serviceAccountName;
    default:
      throw new Error(`${where}.valueFrom.fieldRef.fieldPath "${path}" is not supported by the pod runner`);
  }
}

function envValue(e: EnvVarLike, ctx: EnvContext, where: string): string | undefined {
  if (e.valueFrom === undefined) return e.value ?? '';
  const vf = e.valueFrom;
  if (vf.fieldRef !== undefined) return fieldRef(vf.fieldRef.fieldPath, ctx, where);
  if (vf.configMapKeyRef !== undefined) {
    const ref = vf.configMapKeyRef;
    const v = ctx.configMaps.get(ref.name)?.data?.[ref.key];
    if (v === undefined && ref.optional !== true)
      throw new Error(`${where}: ConfigMap ${ref.name} key ${ref.key} not given`);
    return v;
  }
  throw new Error(`${where}.valueFrom: only fieldRef and configMapKeyRef are supported by the pod runner`);
}

/** Resolves a container's env (envFrom first, then env, later names overriding earlier ones, as the kubelet does). */
export function resolveEnv(c: ContainerLike, ctx: EnvContext, where: string): [string, string][] {
  const out = new Map<string, string>();
  (c.envFrom ?? []).forEach((src, i) => {
    if (src.configMapRef === undefined)
      throw new Error(`${where}.envFrom[${i}]: only configMapRef is supported`);
    const cm = ctx.configMaps.get(src.configMapRef.name);
    if (cm === undefined && src.configMapRef.optional !== true) {
      throw new Error(`${where}.envFrom[${i}]: ConfigMap ${src.configMapRef.name} not given`);
    }
    for (const [k, v] of Object.entries(cm?.data ?? {})) out.set(`${src.prefix ?? ''}${k}`, v);
  });
  (c.env ?? []).forEach((e, i) => {
    const v = envValue(e, ctx, `${where}.env[${i}]`);
    if (v !== undefined) out.set(e.name, v);
  });
  return [...out];
}

/** Expands `$(NAME)` from ENV as the kubelet does in command, args and env values (`$$(` escapes). */
export function expandVars(s: string, env: ReadonlyMap<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m: string, name?: string) => {
    if (m === '$$') return '$';
    return name !== undefined && env.has(name) ? (env.get(name) ?? '') : m;
  });
}
