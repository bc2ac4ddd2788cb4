// What the sandbox's kubelet stand-in decides, without I/O: on which of its "nodes" a pod runs (honouring the pod
// template's required pod anti-affinity on kubernetes.io/hostname, in both directions as the scheduler does), how
// many pods a Deployment wants started or stopped, in which order a Deployment's strategy replaces a pod, and when a
// pod of a lost node is replaced (its toleration of the node lifecycle controller's NoExecute taints).

/** The label selector of a pod anti-affinity term (matchLabels and matchExpressions). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[];
  }[];
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

/** The parts of a pod template the stand-in reads. */
export interface TemplateShape {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: {
    readonly affinity?: {
      readonly podAntiAffinity?: {
        readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly {
          readonly labelSelector?: LabelSelector;
          readonly topologyKey?: string;
        }[];
      };
    };
    readonly tolerations?: readonly Toleration[];
  };
}

/** A pod as placement sees it. */
export interface PodShape {
  readonly labels: Readonly<Record<string, string>>;
  /** Selectors of its required anti-affinity terms on kubernetes.io/hostname. */
  readonly antiAffinity: readonly LabelSelector[];
}

export interface PlacedPod extends PodShape {
  readonly node: string;
}

export const HOSTNAME_KEY = 'kubernetes.io/hostname';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
/** What the DefaultTolerationSeconds admission plugin gives a pod that tolerates the taint not itself. */
export const DEFAULT_TOLERATION_SECONDS = 300;

/**
 * The pod a template makes, as placement sees it. Terms on another topology key than kubernetes.io/hostname are
 * not modelled (every node is its own zone here) and are left out.
 */
export function podShape(t: TemplateShape | undefined): PodShape {
  const terms = t?.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return {
    labels: t?.metadata?.labels ?? {},
    antiAffinity: terms.filter((x) => x.topologyKey === HOSTNAME_KEY).map((x) => x.labelSelector ?? {}),
  };
}

/** Whether SELECTOR selects LABELS (an empty selector selects every pod, as in Kubernetes). */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]!);
    const ok =
      e.operator === 'In'
        ? inValues
        : e.operator === 'NotIn'
          ? !inValues
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

/** Whether A and B may not share a node: either one's anti-affinity selects the other. */
export function repels(a: PodShape, b: PodShape): boolean {
  return a.antiAffinity.some((s) => selects(s, b.labels)) || b.antiAffinity.some((s) => selects(s, a.labels));
}

/**
 * The node POD goes to: among NODES that are up (not in DOWN), those where no placed pod repels it; of those the one
 * running the fewest pods, then the first by name. Undefined: none fits (the pod stays Pending).
 */
export function placePod(
  nodes: readonly string[],
  down: ReadonlySet<string>,
  placed: readonly PlacedPod[],
  pod: PodShape,
): string | undefined {
  const fits = nodes.filter((n) => !down.has(n) && !placed.some((p) => p.node === n && repels(p, pod)));
  const load = (n: string) => placed.filter((p) => p.node === n).length;
  return [...fits].sort((a, b) => load(a) - load(b) || a.localeCompare(b))[0];
}

/** How a Deployment's strategy replaces a pod whose template changed: the order of the two steps. */
export function replaceSteps(strategy: string | undefined): readonly ('start-new' | 'stop-old')[] {
  // RollingUpdate (the Kubernetes default) surges: the new pod first. Recreate stops the old one first.
  return strategy === 'Recreate' ? ['stop-old', 'start-new'] : ['start-new', 'stop-old'];
}

/** How many pods to start (> 0) or stop (< 0) so that HAVE becomes the Deployment's REPLICAS (default 1). */
export function replicaDelta(replicas: number | undefined, have: number): number {
  return Math.max(0, replicas ?? 1) - have;
}

/**
 * How long after its node stopped a pod of that node is replaced: the node lifecycle controller taints the node
 * unreachable GRACE_MS after its last heartbeat, and evicts the pod once its toleration of that NoExecute taint ends
 * (no toleration of its own: the admission plugin's 300 s; several: the shortest, as the taint manager takes; only
 * ones without tolerationSeconds: never, i.e. undefined).
 */
export function replaceAfterMs(
  tolerations: readonly Toleration[] | undefined,
  graceMs: number,
): number | undefined {
  const matching = (tolerations ?? []).filter(
    (t) =>
      (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
      ((t.operator === 'Exists' && (t.key === undefined || t.key === '')) || t.key === UNREACHABLE_TAINT),
  );
  if (matching.length === 0) return graceMs + DEFAULT_TOLERATION_SECONDS * 1000;
  const seconds = matching.flatMap((t) => (t.tolerationSeconds === undefined ? [] : [t.tolerationSeconds]));
  if (seconds.length === 0) return undefined;
  return graceMs + Math.max(0, Math.min(...seconds)) * 1000;
}
