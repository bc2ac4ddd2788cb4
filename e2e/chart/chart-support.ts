// Helpers of the chart's e2e tests: the kinds they read, examples/ applied as a user applies them, helm (the rig's
// binary) on charts/oooi, the rendered objects, the permissions a rendered ClusterRole/Role set grants, a
// RestClient that records every request the controller sends (verb, resource, namespace, status), and a kubeconfig
// carrying a ServiceAccount's token.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse, stringify } from 'yaml';
import {
  ApplyPatchContentType,
  isApiError,
  type KindDescriptor,
  type KubeClient,
  type KubeObject,
  type RestClient,
  type RestRequest,
  type WatchRequest,
} from '@oooi/kube';
import { repoRoot, rigBin, run, versions, type RunResult } from '@oooi/rig';
import { controlPlaneNamespaceOf, kinds as controllerKinds, NamespaceKind } from '../controller/support';

export const chartDir = join(repoRoot, 'charts/oooi');
export const group = 'hostedcluster.densityops.com';
/** The controller e2e tests' kinds (e2e/controller/support) plus what only the chart's tests read. */
export const kinds: Record<string, KindDescriptor> = {
  ...controllerKinds,
  Namespace: NamespaceKind,
  Deployment: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment' },
  CRD: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
  },
};

/** The rig's Kubernetes: offline `helm template`/`lint` otherwise assume v1.20, below the chart's kubeVersion. */
export const kubeVersion = ['--kube-version', versions().k8s];

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export async function helm(args: readonly string[], kubeconfig?: string): Promise<RunResult> {
  const bin = await rigBin('helm');
  const env = {
    ...process.env,
    HELM_CACHE_HOME: '/tmp/oooi-helm/cache',
    HELM_CONFIG_HOME: '/tmp/oooi-helm/config',
  };
  return run([bin, ...args, ...(kubeconfig ? ['--kubeconfig', kubeconfig] : [])], { env, timeoutMs: 60_000 });
}

export async function helmOk(args: readonly string[], kubeconfig?: string): Promise<string> {
  const res = await helm(args, kubeconfig);
  if (res.code !== 0)
    throw new Error(`helm ${args.join(' ')} exited ${res.code}:\n${res.stderr}${res.stdout}`);
  return res.stdout;
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

/** `helm template` with extra args (-f, --set, --namespace), parsed. */
export async function renderChart(args: readonly string[] = []): Promise<K8sObject[]> {
  return parseObjects(await helmOk(['template', 'oooi', chartDir, ...kubeVersion, ...args]));
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

/**
 * What rendered RBAC grants, as `verb group/resource@namespace` (namespace `*` for a ClusterRole) and
 * `verb url` for non-resource URLs. Only roles bound to `serviceAccount` count.
 */
export function grantedBy(objects: readonly K8sObject[], serviceAccount: string): Set<string> {
  const roles = new Map<string, K8sObject>();
  for (const o of objects) {
    if (o.kind === 'ClusterRole') roles.set(`ClusterRole/${o.metadata.name}`, o);
    if (o.kind === 'Role') roles.set(`Role/${o.metadata.namespace}/${o.metadata.name}`, o);
  }
  const out = new Set<string>();
  for (const b of objects) {
    if (b.kind !== 'ClusterRoleBinding' && b.kind !== 'RoleBinding') continue;
    const subjects = (b.subjects ?? []) as { kind: string; name: string }[];
    if (!subjects.some((s) => s.kind === 'ServiceAccount' && s.name === serviceAccount)) continue;
    const ref = b.roleRef as { kind: string; name: string };
    const key =
      ref.kind === 'ClusterRole' ? `ClusterRole/${ref.name}` : `Role/${b.metadata.namespace}/${ref.name}`;
    const role = roles.get(key);
    if (!role) throw new Error(`binding ${b.metadata.name} names a missing ${key}`);
    const ns = b.kind === 'ClusterRoleBinding' ? '*' : (b.metadata.namespace ?? '');
    for (const rule of (role.rules ?? []) as Rule[]) {
      for (const verb of rule.verbs) {
        for (const url of rule.nonResourceURLs ?? []) out.add(`${verb} ${url}`);
        for (const g of rule.apiGroups ?? [])
          for (const r of rule.resources ?? []) out.add(`${verb} ${g === '' ? 'core' : g}/${r}@${ns}`);
      }
    }
  }
  return out;
}

/** Whether `granted` covers one used permission (a ClusterRole covers every namespace). */
export function covers(granted: ReadonlySet<string>, used: string): boolean {
  if (granted.has(used)) return true;
  const at = used.lastIndexOf('@');
  return at > 0 && granted.has(`${used.slice(0, at)}@*`);
}

export interface Recorded {
  readonly permission: string;
  readonly status: number;
  readonly line: string;
}

/** `verb group/resource[/sub]@namespace` for an API path (namespace `*`: all); `get path` for discovery. */
export function permissionOf(method: string, path: string, watch: boolean): string {
  const parts = path.split('/').filter((p) => p !== '');
  const core = parts[0] === 'api';
  const head = core ? 2 : 3;
  if (parts.length <= head) return `get ${path}`;
  const group = core ? 'core' : parts[1]!;
  let rest = parts.slice(head);
  let ns = '*';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    ns = rest[1]!;
    rest = rest.slice(2);
  }
  const [resource, name, sub] = rest;
  const verbs: Record<string, string> = {
    GET: name ? 'get' : 'list',
    POST: 'create',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: 'delete',
  };
  const verb = watch ? 'watch' : (verbs[method] ?? method);
  return `${verb} ${group}/${resource}${sub ? `/${sub}` : ''}@${ns}`;
}

/** Records every request and watch the wrapped client sends, with the answer's status. */
export class RecordingRest implements RestClient {
  readonly recorded: Recorded[] = [];
  constructor(private readonly inner: RestClient) {}

  private note(
    req: { method: string; path: string; contentType?: string },
    watch: boolean,
    status: number,
  ): void {
    const permission = permissionOf(req.method, req.path, watch);
    const line = `${req.method} ${req.path}`;
    this.recorded.push({ permission, status, line });
    // Server-side apply of a whole object is authorized as `create` too when the object does not exist yet.
    const applied = req.contentType === ApplyPatchContentType && !/\/status@/.test(permission);
    if (applied) this.recorded.push({ permission: permission.replace(/^patch /, 'create '), status, line });
  }

  async request<T = unknown>(req: RestRequest): Promise<T> {
    try {
      const out = await this.inner.request<T>(req);
      this.note(req, false, 200);
      return out;
    } catch (err) {
      this.note(req, false, isApiError(err) ? err.code : 0);
      throw err;
    }
  }

  async watch(...args: Parameters<RestClient['watch']>): ReturnType<RestClient['watch']> {
    const req: WatchRequest = args[0];
    try {
      const handle = await this.inner.watch(...args);
      this.note({ method: 'GET', path: req.path }, true, 200);
      return handle;
    } catch (err) {
      this.note({ method: 'GET', path: req.path }, true, isApiError(err) ? err.code : 0);
      throw err;
    }
  }
}

/** A kubeconfig for the rig's apiserver that authenticates with `token` (a ServiceAccount's). */
export function writeTokenKubeconfig(adminKubeconfig: string, token: string, out: string): string {
  const admin = parse(readFileSync(adminKubeconfig, 'utf8')) as {
    clusters: { name: string; cluster: Record<string, unknown> }[];
  };
  const cluster = admin.clusters[0]!;
  writeFileSync(
    out,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [cluster],
      users: [{ name: 'sa', user: { token } }],
      contexts: [{ name: 'sa', context: { cluster: cluster.name, user: 'sa' } }],
      'current-context': 'sa',
    }),
    { mode: 0o600 },
  );
  return out;
}

/** The objects of examples/FILE. */
export function exampleObjects(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(join(repoRoot, 'examples', file), 'utf8')).map(
    (d) => d.toJS() as KubeObject,
  );
}

/** The Infra NAMESPACE/NAME is Ready (and has observed GENERATION, when given). */
export async function infraReady(
  admin: KubeClient,
  namespace: string,
  name: string,
  generation?: number,
): Promise<boolean> {
  const infra = await admin.get(kinds.Infra!, { namespace, name });
  const status = infra?.status as
    { observedGeneration?: number; conditions?: { type: string; status: string }[] } | undefined;
  const ready = status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return ready && (generation === undefined || status?.observedGeneration === generation);
}

/**
 * examples/, as a user applies them: the Infra and attachments (namespace `clusters`) and the standalone DHCPServer
 * (namespace `lab`, reading VMIs in `lab-vms`: its VMI-reader RoleBinding there passes RBAC escalation prevention
 * only because the chart lets the operator `bind` the VMI-reader ClusterRole it refers to).
 */
export async function applyExamples(admin: KubeClient): Promise<void> {
  for (const name of ['clusters', 'lab', 'lab-vms']) {
    await admin.apply(kinds.Namespace!, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const all = [
    ...exampleObjects('infra.yaml'),
    ...exampleObjects('attachments.yaml'),
    ...exampleObjects('dhcpserver.yaml'),
  ];
  // The attachments' control-plane namespaces, as HyperShift creates them with the HostedClusters (the operator
  // routes an attachment only once its namespace exists).
  for (const a of all.filter((o) => o.kind === 'InfraClusterAttachment')) {
    const name = controlPlaneNamespaceOf(a);
    await admin.apply(kinds.Namespace!, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  for (const obj of all) await admin.apply(kinds[obj.kind ?? '']!, obj, { force: true });
}
