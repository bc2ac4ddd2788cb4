// Which pods are a ProxyServer's Envoy pods: the one selector its workload's pods carry and every Service in front
// of them uses (the ProxyServer's own Service, and each attachment's `<attachment>-proxy-external`). It names the
// ProxyServer, not only the app, so two Infras in one namespace never share endpoints (the Go version selected
// `app=proxy-server` alone). It is workload/names.ts's selector for the proxy component.
import { WORKLOAD_LABEL, workloadNames } from './names';

/** The label naming the ProxyServer a pod (or child) belongs to; its value is toDnsLabel(<proxyserver name>). */
export const PROXY_SERVER_LABEL = WORKLOAD_LABEL.proxy;

/** The pod selector of the ProxyServer called NAME (an Infra's is `<infra>-proxy`). */
export function proxyPodSelector(proxyServerName: string): Readonly<Record<string, string>> {
  return workloadNames('proxy', proxyServerName).selector;
}
