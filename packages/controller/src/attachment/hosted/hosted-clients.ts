// The shell's door into hosted clusters: a client per attachment, built from its HostedCluster's kubeconfig
// Secret (`status.kubeconfig.name`, key `kubeconfig`, in the HostedCluster's namespace), dialling the in-cluster
// API Service with the certificate verified against the kubeconfig's own host (desired/hosted-endpoint.ts). The
// kubeconfig comes from another party, so it may carry only embedded credentials: no file paths, exec or
// auth-provider plugins, proxies or skipped verification (`loadKubeConfigText`, embeddedOnly). A client is kept
// while the Secret's uid and resourceVersion stay the same and rebuilt when the Secret rotates.
import type { LookupFunction } from 'node:net';
import { KubeClient, KubeConfigRest, loadKubeConfigText, type KubeObject, type RestClient } from '@oooi/kube';
import { field } from '../../infra';
import { hostedEndpoint } from '../desired/hosted-endpoint';
import { HostedClusterKind, SecretKind } from '../../workload/kinds';

/** What a hosted client is built from (the attachment's resolved target). */
export interface HostedTarget {
  readonly hostedCluster: { readonly namespace: string; readonly name: string };
  readonly controlPlaneNamespace: string;
  readonly apiServerService: string;
}

export interface HostedSession {
  readonly client: KubeClient;
  readonly rest: RestClient;
}

export type HostedAccess =
  | { readonly state: 'ok'; readonly session: HostedSession }
  /** The HostedCluster or its kubeconfig Secret does not exist: nothing there to reach any more. */
  | { readonly state: 'gone'; readonly why: string }
  | { readonly state: 'failed'; readonly why: string };

export interface HostedClientsOptions {
  /** The management cluster's client (reads the HostedCluster and the Secret). */
  readonly management: KubeClient;
  readonly fieldManager: string;
  /** Per-request timeout against a hosted apiserver. Default 10 s (a pass has 60 s in all). */
  readonly requestTimeoutMs?: number;
  /**
   * FOR TESTS ONLY: resolves host names for hosted-cluster requests, because a test machine cannot resolve
   * `<service>.<namespace>.svc.cluster.local`. The URL, the TLS server name and verification stay as in production.
   */
  readonly lookupForTests?: LookupFunction;
}

interface Entry {
  readonly version: string;
  readonly session: HostedSession;
  readonly rest: KubeConfigRest;
}

function decode(secret: KubeObject): string | undefined {
  const data = field(secret, 'data', 'kubeconfig');
  if (typeof data !== 'string' || data === '') return undefined;
  return Buffer.from(data, 'base64').toString('utf8');
}

function message(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.length > 300 ? `${m.slice(0, 300)}…` : m;
}

export class HostedClients {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly o: HostedClientsOptions) {}

  /** A session for KEY (the attachment), built or reused; I/O errors against the management cluster propagate. */
  async access(key: string, t: HostedTarget, signal?: AbortSignal): Promise<HostedAccess> {
    const hcName = `${t.hostedCluster.namespace}/${t.hostedCluster.name}`;
    const hc = await this.o.management.get(HostedClusterKind, t.hostedCluster, signal);
    if (!hc) return { state: 'gone', why: `HostedCluster ${hcName} not found` };
    const secretName = field(hc, 'status', 'kubeconfig', 'name');
    if (typeof secretName !== 'string' || secretName === '')
      return { state: 'failed', why: `HostedCluster ${hcName} has no status.kubeconfig.name yet` };
    const ref = { namespace: t.hostedCluster.namespace, name: secretName };
    const secret = await this.o.management.get(SecretKind, ref, signal);
    const secretText = `Secret ${ref.namespace}/${ref.name}`;
    if (!secret)
      return { state: 'gone', why: `${secretText} (the kubeconfig of HostedCluster ${hcName}) not found` };
    const version = JSON.stringify([
      secret.metadata?.uid,
      secret.metadata?.resourceVersion,
      t.controlPlaneNamespace,
      t.apiServerService,
    ]);
    const known = this.entries.get(key);
    if (known?.version === version) return { state: 'ok', session: known.session };
    this.forget(key);
    const text = decode(secret);
    if (!text) return { state: 'failed', why: `${secretText} has no key kubeconfig` };
    try {
      const entry = await this.build(text, t, version);
      this.entries.set(key, entry);
      return { state: 'ok', session: entry.session };
    } catch (err) {
      return { state: 'failed', why: `${secretText}: ${message(err)}` };
    }
  }

  /** Drops KEY's client (its connections too). */
  forget(key: string): void {
    this.entries.get(key)?.rest.close();
    this.entries.delete(key);
  }

  private async build(text: string, t: HostedTarget, version: string): Promise<Entry> {
    let endpointError: string | undefined;
    const kubeConfig = await loadKubeConfigText(text, {
      embeddedOnly: true,
      rewriteServer: (server) => {
        const r = hostedEndpoint(server, t.apiServerService, t.controlPlaneNamespace);
        if (r.ok) return r.endpoint;
        endpointError = r.error;
        return { server };
      },
    });
    if (endpointError) throw new Error(endpointError);
    const rest = new KubeConfigRest({
      kubeConfig,
      requestTimeoutMs: this.o.requestTimeoutMs ?? 10_000,
      ...(this.o.lookupForTests ? { lookup: this.o.lookupForTests } : {}),
    });
    const client = new KubeClient({ rest, fieldManager: this.o.fieldManager });
    return { version, rest, session: { client, rest } };
  }
}
