// A kubeconfig given as text (e.g. read from a Secret), loaded into a client-node KubeConfig, optionally with the
// current cluster's server address rewritten and restricted to embedded credentials. A kubeconfig that comes from
// another party must not make this process read its local files, run a program, go through a proxy or skip
// certificate verification, so `embeddedOnly` refuses each of those with an error naming the field.
import type { KubeConfig } from '@kubernetes/client-node';

export interface KubeConfigTextOptions {
  /**
   * Replaces the current cluster's server URL; given the kubeconfig's own URL, returns the URL to dial and the TLS
   * server name the certificate is verified against (keep the original host there to keep verification).
   */
  readonly rewriteServer?: (server: string) => { readonly server: string; readonly tlsServerName?: string };
  /** Refuse file paths, exec and auth-provider plugins, proxies and `insecure-skip-tls-verify`. Default false. */
  readonly embeddedOnly?: boolean;
}

/** Why an embedded-only kubeconfig is refused, or undefined when it is acceptable. */
function refusal(kc: KubeConfig): string | undefined {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster) return 'it has no current cluster';
  const problems: string[] = [];
  if (cluster.caFile) problems.push('cluster certificate-authority is a file path');
  if (cluster.skipTLSVerify) problems.push('cluster insecure-skip-tls-verify is set');
  if (cluster.proxyUrl) problems.push('cluster proxy-url is set');
  if (user?.certFile) problems.push('user client-certificate is a file path');
  if (user?.keyFile) problems.push('user client-key is a file path');
  if (user?.exec) problems.push('user exec plugin');
  if (user?.authProvider) problems.push('user auth-provider plugin');
  return problems.length > 0 ? problems.join(', ') : undefined;
}

/** Parses TEXT (YAML or JSON); throws an Error naming what is wrong (never the credentials themselves). */
export async function loadKubeConfigText(
  text: string,
  options: KubeConfigTextOptions = {},
): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text);
  } catch (err) {
    // The parser's message may quote the text (credentials), so it stays in `cause`, out of the message.
    throw new Error('kubeconfig does not parse as a kubeconfig (YAML or JSON)', { cause: err });
  }
  const refused = options.embeddedOnly ? refusal(kc) : undefined;
  if (refused) throw new Error(`kubeconfig refused: ${refused}`);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  if (!options.rewriteServer) return kc;
  const next = options.rewriteServer(cluster.server);
  const rewritten = new KubeConfig();
  rewritten.loadFromOptions({
    clusters: kc.clusters.map((c) =>
      c.name === cluster.name ? { ...c, server: next.server, tlsServerName: next.tlsServerName } : c,
    ),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return rewritten;
}
