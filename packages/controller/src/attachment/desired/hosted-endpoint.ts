// Where the controller reaches a hosted cluster's API (reference, the hosted-cluster client): not at the
// kubeconfig's public address (which the management cluster may not resolve or route), but at the in-cluster
// Service `<apiServerService>.<controlPlaneNamespace>.svc.cluster.local` on the kubeconfig's port (443 when it
// names none), while the TLS server name stays the kubeconfig's host, so the serving certificate is verified
// against the name it was issued for.

export interface HostedEndpoint {
  /** The URL dialled. */
  readonly server: string;
  /** The name the certificate is verified against (and sent as SNI, unless it is an address). */
  readonly tlsServerName: string;
}

export type HostedEndpointResult =
  { readonly ok: true; readonly endpoint: HostedEndpoint } | { readonly ok: false; readonly error: string };

export function hostedEndpoint(
  kubeconfigServer: string,
  apiServerService: string,
  controlPlaneNamespace: string,
): HostedEndpointResult {
  let url: URL;
  try {
    url = new URL(kubeconfigServer);
  } catch {
    return { ok: false, error: `the kubeconfig's server ${JSON.stringify(kubeconfigServer)} is not a URL` };
  }
  if (url.protocol !== 'https:')
    return { ok: false, error: `the kubeconfig's server ${url.origin} is not https` };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || '443';
  return {
    ok: true,
    endpoint: {
      server: `https://${apiServerService}.${controlPlaneNamespace}.svc.cluster.local:${port}`,
      tlsServerName: host,
    },
  };
}
