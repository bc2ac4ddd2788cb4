// The operator's Deployment and RBAC in the OLM bundle's ClusterServiceVersion, built from the chart's sources:
// charts/oooi/values.yaml (what templates/deployment.yaml renders with its defaults) and the controller's RBAC rules
// (what templates/rbac.yaml holds). e2e/olm/csv-matches-chart.test.ts compares both with `helm template`.
import { controllerRegistrations, requiredPermissions, rulesFrom } from '../src/index';
import type { PolicyRule } from '../src/index';

export const PACKAGE = 'oooi';
export const CHANNEL = 'alpha';
/** The names OLM gives the operator's objects (the chart's are the release's full name). */
export const OPERATOR_NAME = 'oooi-controller';

/** The chart values the Deployment is built from (charts/oooi/values.yaml; values.schema.json types them). */
export interface ChartValues {
  readonly image: {
    readonly repository: string;
    readonly tag: string;
    readonly digest: string;
    readonly pullPolicy: string;
  };
  readonly childImages: Readonly<Record<string, string>>;
  readonly networkPolicy: { readonly enabled: boolean; readonly metricsNamespaces: readonly string[] };
  readonly replicaCount: number;
  readonly leaderElection: { readonly enabled: boolean; readonly id: string };
  readonly dataPlane: { readonly nodeLossTolerationSeconds: number };
  readonly logLevel: string;
  readonly kubeApi: { readonly qps: number; readonly burst: number };
  readonly openshift: { readonly scc: { readonly name: string } };
  readonly health: { readonly port: number };
  readonly metrics: { readonly port: number };
  readonly resources: unknown;
  readonly podSecurityContext: unknown;
  readonly securityContext: unknown;
}

/** The chart's `oooi.image`: repository@digest, else repository:tag (tag defaults to the version). */
export function controllerImage(values: ChartValues, version: string): string {
  const { repository, tag, digest } = values.image;
  return digest ? `${repository}@${digest}` : `${repository}:${tag || version}`;
}

/** --dhcp-image … flag names of childImages keys, as in templates/deployment.yaml. */
const childImageFlags: Readonly<Record<string, string>> = {
  dhcp: '--dhcp-image',
  dhcpServer: '--dhcp-server-image',
  dns: '--dns-image',
  proxy: '--proxy-image',
  xds: '--xds-image',
  keepalived: '--keepalived-image',
  configSync: '--config-sync-image',
};

/**
 * The controller's args, as the chart renders them without watchNamespace; the Lease lives in the pod's own
 * namespace ($(POD_NAMESPACE), the install namespace OLM chose), and the watched namespace comes from
 * $WATCH_NAMESPACE (the OperatorGroup's target namespace, empty for all namespaces).
 */
function controllerArgs(v: ChartValues): string[] {
  const lease = v.leaderElection.enabled
    ? ['--leader-election-namespace=$(POD_NAMESPACE)', `--leader-election-id=${v.leaderElection.id}`]
    : ['--no-leader-elect'];
  const images = Object.entries(childImageFlags).map(([key, flag]) => {
    const image = v.childImages[key];
    if (!image) throw new Error(`charts/oooi/values.yaml: childImages.${key} is missing`);
    return `${flag}=${image}`;
  });
  const policy = v.networkPolicy.enabled
    ? [`--network-policy-metrics-namespaces=${v.networkPolicy.metricsNamespaces.join(',')}`]
    : ['--no-network-policy'];
  return [
    ...lease,
    `--health-address=:${v.health.port}`,
    `--metrics-address=:${v.metrics.port}`,
    ...images,
    ...policy,
    `--node-loss-toleration-seconds=${v.dataPlane.nodeLossTolerationSeconds}`,
    `--kube-api-qps=${v.kubeApi.qps}`,
    `--kube-api-burst=${v.kubeApi.burst}`,
    `--log-level=${v.logLevel}`,
  ];
}

const fieldEnv = (name: string, fieldPath: string): unknown => ({
  name,
  valueFrom: { fieldRef: { fieldPath } },
});

export function selectorLabels(): Record<string, string> {
  return { 'app.kubernetes.io/name': PACKAGE, 'app.kubernetes.io/instance': PACKAGE };
}

/** The install strategy's Deployment spec: templates/deployment.yaml with the chart's defaults. */
export function deploymentSpec(v: ChartValues, version: string): unknown {
  const labels = {
    ...selectorLabels(),
    'app.kubernetes.io/part-of': PACKAGE,
    'app.kubernetes.io/version': version,
  };
  return {
    replicas: v.replicaCount,
    selector: { matchLabels: selectorLabels() },
    template: {
      metadata: { labels },
      spec: {
        serviceAccountName: OPERATOR_NAME,
        automountServiceAccountToken: true,
        securityContext: v.podSecurityContext,
        terminationGracePeriodSeconds: 40,
        containers: [
          {
            name: 'controller',
            image: controllerImage(v, version),
            imagePullPolicy: v.image.pullPolicy,
            args: controllerArgs(v),
            env: [
              fieldEnv('POD_NAME', 'metadata.name'),
              fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
              // OLM writes the OperatorGroup's target namespaces here; empty (AllNamespaces) = every namespace.
              fieldEnv('WATCH_NAMESPACE', "metadata.annotations['olm.targetNamespaces']"),
            ],
            ports: [
              { name: 'health', containerPort: v.health.port, protocol: 'TCP' },
              { name: 'metrics', containerPort: v.metrics.port, protocol: 'TCP' },
            ],
            livenessProbe: {
              httpGet: { path: '/healthz', port: 'health' },
              initialDelaySeconds: 5,
              periodSeconds: 10,
              failureThreshold: 3,
            },
            readinessProbe: {
              httpGet: { path: '/readyz', port: 'health' },
              periodSeconds: 5,
              failureThreshold: 3,
            },
            resources: v.resources,
            securityContext: v.securityContext,
            volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
          },
        ],
        volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '16Mi' } }],
      },
    },
  };
}

/** templates/openshift-scc.yaml's rule: the ServiceAccount may use the SCC that admits the fixed UID. */
function sccRule(v: ChartValues): CsvRule {
  return {
    apiGroups: ['security.openshift.io'],
    resources: ['securitycontextconstraints'],
    resourceNames: [v.openshift.scc.name],
    verbs: ['use'],
  };
}

/**
 * RBAC as the chart renders it with watchNamespace set and openshift.scc.enabled: the cluster-wide rules in a
 * ClusterRole; the watched, Lease and SCC rules namespaced (OLM grants them in the install and target namespaces,
 * and turns them into a ClusterRole for an AllNamespaces OperatorGroup, which is the chart's ClusterRole then).
 */
export function csvRbac(v: ChartValues): { cluster: CsvRule[]; namespaced: CsvRule[] } {
  const rules = rulesFrom(requiredPermissions(controllerRegistrations()));
  return {
    cluster: [...rules.cluster],
    namespaced: [...rules.watched, ...(v.leaderElection.enabled ? rules.lease : []), sccRule(v)],
  };
}

/** A PolicyRule that may name its objects (the SCC rule). */
export type CsvRule = PolicyRule & { readonly resourceNames?: readonly string[] };

/** The images the bundle runs: the operator's and every default child image (the chart's values), named. */
export function relatedImages(v: ChartValues, version: string): { name: string; image: string }[] {
  const out = [{ name: 'oooi-controller', image: controllerImage(v, version) }];
  const seen = new Set(out.map((r) => r.image));
  for (const key of Object.keys(childImageFlags)) {
    const image = v.childImages[key]!;
    if (seen.has(image)) continue;
    seen.add(image);
    out.push({ name: key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), image });
  }
  return out;
}
