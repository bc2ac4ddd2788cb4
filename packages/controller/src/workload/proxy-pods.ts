// Which pods are a ProxyServer's Envoy pods: the one selector its workload's pods carry and every Service in front
// of them uses (the ProxyServer's own Service, and each attachment's `<attachment>-proxy-external`). It names the
// ProxyServer, not only the app, so two Infras in one namespace never share endpoints (the Go version selected
// `app=proxy-server` alone). Same scheme as the DNS workload (dns/desired/names.ts): the app name and
// `hostedcluster.densityops.com/proxyserver: <toDnsLabel(proxyserver name)>`.
import { GROUP } from '@oooi/api';
import { toDnsLabel } from './dns-label';

/** The label naming the ProxyServer a pod (or child) belongs to; its value is toDnsLabel(<proxyserver name>). */
export const PROXY_SERVER_LABEL = `${GROUP}/proxyserver`;
/** `app.kubernetes.io/name` of the Envoy pods. */
export const PROXY_APP_NAME = 'envoy';

/** The pod selector of the ProxyServer called NAME (an Infra's is `<infra>-proxy`). */
export function proxyPodSelector(proxyServerName: string): Readonly<Record<string, string>> {
  return { 'app.kubernetes.io/name': PROXY_APP_NAME, [PROXY_SERVER_LABEL]: toDnsLabel(proxyServerName) };
}
