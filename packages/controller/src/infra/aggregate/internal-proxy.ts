// `spec.infraComponents.proxy.internalProxyService`: the address the pod-network DNS view answers with. It is
// either a literal IPv4 ClusterIP or a Service DNS name `<service>.<namespace>[.svc[.<cluster domain>]]`, resolved
// to that Service's ClusterIP. Unset: the pod-network view answers nothing and forwards (reference).
import { isIPv4 } from '@oooi/api';
import { identityOf, serviceClusterIP } from './third-party';
import type { ObjectIdentity } from './third-party';

export type InternalProxyRef =
  | { readonly kind: 'ip'; readonly ip: string }
  | { readonly kind: 'service'; readonly service: ObjectIdentity }
  | { readonly kind: 'invalid'; readonly message: string };

export type InternalProxy =
  | { readonly state: 'unset' }
  | { readonly state: 'resolved'; readonly ip: string; readonly service?: ObjectIdentity }
  | { readonly state: 'invalid'; readonly message: string }
  | { readonly state: 'unresolved'; readonly service: ObjectIdentity; readonly message: string };

const field = 'spec.infraComponents.proxy.internalProxyService';
const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Parses the field's text (non-empty). */
export function parseInternalProxyService(text: string): InternalProxyRef {
  if (isIPv4(text)) return { kind: 'ip', ip: text };
  const [name = '', namespace = '', svc, ...rest] = text.replace(/\.$/, '').split('.');
  const domainOk = svc === undefined || (svc === 'svc' && rest.every((l) => label.test(l)));
  if (!label.test(name) || !label.test(namespace) || !domainOk) {
    return {
      kind: 'invalid',
      message: `${field} "${text}" is neither an IPv4 address nor a Service name <service>.<namespace>[.svc[.<cluster domain>]]`,
    };
  }
  return { kind: 'service', service: { namespace, name } };
}

/** Resolves the field against the Services known (any namespace). */
export function resolveInternalProxy(text: string | undefined, services: readonly unknown[]): InternalProxy {
  if (text === undefined || text === '') return { state: 'unset' };
  const ref = parseInternalProxyService(text);
  if (ref.kind === 'ip') return { state: 'resolved', ip: ref.ip };
  if (ref.kind === 'invalid') return { state: 'invalid', message: ref.message };
  const { namespace, name } = ref.service;
  const svc = services.find((s) => {
    const id = identityOf(s);
    return id.namespace === namespace && id.name === name;
  });
  const ip = svc === undefined ? undefined : serviceClusterIP(svc);
  if (ip !== undefined && isIPv4(ip)) return { state: 'resolved', ip, service: ref.service };
  const why = svc === undefined ? 'does not exist' : 'has no IPv4 ClusterIP';
  return {
    state: 'unresolved',
    service: ref.service,
    message: `${field} "${text}": Service ${namespace}/${name} ${why}; the pod-network DNS view answers nothing until it does`,
  };
}
