// What `oooi render` reads, sorted into what the Infra's decisions need. Documents arrive already parsed (the CLI
// reads the files); each is checked here: our kinds exactly as the apiserver would admit them (validateObject:
// schema, defaults, CEL twins), the third-party kinds for kind and name only. Every problem names its file and
// field. Missing metadata is filled as the apiserver would on create: namespace `default`, generation 1.
import { formatFieldError, validateMetadata, validateObject } from '@oooi/api';
import type {
  DHCPServer,
  DNSServer,
  HostedClusterGrant,
  Infra,
  InfraClusterAttachment,
  OooiObject,
  ProxyServer,
} from '@oooi/api';
import { field, identityOf } from '../../infra';

/** One parsed YAML document and where it came from. */
export interface SourceDocument {
  /** The file as the user named it. */
  readonly file: string;
  /** 1-based document number in the file. */
  readonly index: number;
  readonly value: unknown;
}

export interface RenderInput {
  readonly infras: readonly Infra[];
  readonly attachments: readonly InfraClusterAttachment[];
  readonly grants: readonly HostedClusterGrant[];
  readonly dhcpServers: readonly DHCPServer[];
  readonly dnsServers: readonly DNSServer[];
  readonly proxyServers: readonly ProxyServer[];
  readonly nodePools: readonly unknown[];
  readonly machines: readonly unknown[];
  readonly services: readonly unknown[];
  readonly hostedClusters: readonly unknown[];
}

/** The Infras of the files other than INFRA, each with the files' attachments: what the cluster's caches would hold. */
export function neighboursIn(
  input: RenderInput,
  infra: Infra,
): { infra: Infra; attachments: readonly InfraClusterAttachment[] }[] {
  return input.infras.filter((i) => i !== infra).map((i) => ({ infra: i, attachments: input.attachments }));
}

export type ReadResult =
  | { readonly ok: true; readonly input: RenderInput }
  | { readonly ok: false; readonly errors: readonly string[] };

const thirdParty = {
  HostedCluster: 'hostedClusters',
  NodePool: 'nodePools',
  Machine: 'machines',
  Service: 'services',
} as const;
const readable =
  'Infra, InfraClusterAttachment, HostedClusterGrant, DHCPServer, DNSServer, ProxyServer, HostedCluster, NodePool, Machine, Service';

const oooiKinds: readonly string[] = [
  'Infra',
  'InfraClusterAttachment',
  'HostedClusterGrant',
  'DHCPServer',
  'DNSServer',
  'ProxyServer',
];

type Buckets = { -readonly [K in keyof RenderInput]: Array<RenderInput[K][number]> };

/** A kind for messages: the string, or what it is when it is none (String() of `{toString: {}}` throws). */
function kindText(kind: unknown): string {
  return typeof kind === 'string' ? kind : `(${kind === null ? 'null' : typeof kind})`;
}

function where(doc: SourceDocument): string {
  return `${doc.file}: document ${doc.index}`;
}

/** Fills what the apiserver fills on create, leaving everything else as written. */
function withServerMetadata<T>(value: T): T {
  const obj = value as { metadata?: Record<string, unknown> };
  const metadata = { ...(obj.metadata ?? {}) };
  if (typeof metadata.namespace !== 'string' || metadata.namespace === '') metadata.namespace = 'default';
  if (typeof metadata.generation !== 'number') metadata.generation = 1;
  return { ...obj, metadata } as T;
}

function addOooi(doc: SourceDocument, buckets: Buckets, errors: string[]): void {
  const result = validateObject(doc.value);
  if (!result.ok) {
    const id = identityOf(doc.value);
    const kind = kindText(field(doc.value, 'kind'));
    for (const e of result.errors)
      errors.push(`${doc.file}: ${kind} ${id.namespace}/${id.name}: ${formatFieldError(e)}`);
    return;
  }
  const obj: OooiObject = withServerMetadata(result.value);
  switch (obj.kind) {
    case 'Infra':
      buckets.infras.push(obj);
      break;
    case 'InfraClusterAttachment':
      buckets.attachments.push(obj);
      break;
    case 'HostedClusterGrant':
      buckets.grants.push(obj);
      break;
    case 'DHCPServer':
      buckets.dhcpServers.push(obj);
      break;
    case 'DNSServer':
      buckets.dnsServers.push(obj);
      break;
    case 'ProxyServer':
      buckets.proxyServers.push(obj);
      break;
  }
}

function addDocument(doc: SourceDocument, buckets: Buckets, errors: string[]): void {
  const kind = field(doc.value, 'kind');
  if (typeof kind !== 'string') {
    errors.push(`${where(doc)}: kind: Required value`);
    return;
  }
  if (Object.hasOwn(thirdParty, kind)) {
    const problems = validateMetadata(field(doc.value, 'metadata'));
    for (const e of problems) errors.push(`${where(doc)}: ${kind}: ${formatFieldError(e)}`);
    if (problems.length === 0)
      buckets[thirdParty[kind as keyof typeof thirdParty]].push(withServerMetadata(doc.value));
    return;
  }
  if (oooiKinds.includes(kind)) {
    addOooi(doc, buckets, errors);
    return;
  }
  errors.push(`${where(doc)}: kind: Unsupported value: ${JSON.stringify(kind)}: oooi reads ${readable}`);
}

function duplicates(docs: readonly SourceDocument[]): string[] {
  const seen = new Map<string, SourceDocument>();
  const errors: string[] = [];
  for (const doc of docs) {
    const kind = field(doc.value, 'kind');
    const id = identityOf(doc.value);
    const key = `${kindText(kind)} ${id.namespace}/${id.name}`;
    const first = seen.get(key);
    if (first)
      errors.push(`${where(doc)}: ${key}: metadata.name: Duplicate value: already in ${where(first)}`);
    else seen.set(key, doc);
  }
  return errors;
}

/** Where each object came from (`Kind namespace/name` → file), for messages about it. */
export type Origins = ReadonlyMap<string, string>;

export function originKey(kind: string, namespace: string, name: string): string {
  return `${kind} ${namespace}/${name}`;
}

/**
 * Sorts documents into the render input, keeping every valid object and listing every problem (documents that
 * are null, like a trailing `---`, are skipped).
 */
export function readDocuments(docs: readonly SourceDocument[]): {
  input: RenderInput;
  errors: string[];
  origins: Origins;
} {
  const present = docs.filter((d) => d.value !== null && d.value !== undefined);
  const buckets: Buckets = {
    infras: [],
    attachments: [],
    grants: [],
    dhcpServers: [],
    dnsServers: [],
    proxyServers: [],
    nodePools: [],
    machines: [],
    services: [],
    hostedClusters: [],
  };
  const errors: string[] = [];
  const origins = new Map<string, string>();
  for (const doc of present) {
    if (typeof doc.value !== 'object' || Array.isArray(doc.value)) {
      errors.push(`${where(doc)}: an object is required`);
      continue;
    }
    const id = identityOf(doc.value);
    origins.set(originKey(kindText(field(doc.value, 'kind')), id.namespace, id.name), doc.file);
    addDocument(doc, buckets, errors);
  }
  errors.push(...duplicates(present));
  return { input: buckets, errors, origins };
}

/** The render input, or every problem with it. */
export function readRenderInput(docs: readonly SourceDocument[]): ReadResult {
  const { input, errors } = readDocuments(docs);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}
