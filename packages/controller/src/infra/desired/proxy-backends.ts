// The proxy's routing table, exactly as the CRD reference states it (6443 for API traffic and the
// source-scoped Kubernetes Service alias, 443 for OAuth, Ignition, konnectivity and the SNI Kubernetes alias; apps
// on the configured HTTP/HTTPS ports). Per attachment in name order:
//
// | backend                     | matched by                   | port  | target                    | sources |
// | <p>kube-apiserver           | SNI api.<d>                  | 6443  | kube-apiserver:6443       |         |
// | <p>kube-apiserver-internal  | SNI api-int.<d>              | 6443  | kube-apiserver:6443       |         |
// | <p>oauth-openshift          | SNI oauth.<d>                | 443   | oauth-openshift:6443      |         |
// | <p>ignition-server          | SNI ignition.<d>             | 443   | ignition-server-proxy:443 |         |
// | <p>konnectivity-server      | SNI konnectivity.<d>         | 443   | konnectivity-server:8091  |         |
// | <p>apps-http  (apps Ready)  | Host *.apps.<d> (HTTP)       | http  | VIP:http in default       |         |
// | <p>apps-https (apps Ready)  | SNI *.apps.<d>               | https | VIP:https in default      |         |
// | <p>kubernetes-hostname      | SNI kubernetes + 4 alternates| 443   | kube-apiserver:6443       | /32s    |
// | <p>kubernetes-service       | kubernetes (SNI ignored)     | 6443  | kube-apiserver:6443       | /32s    |
//
// Targets are in the control-plane namespace unless noted. apps-http carries `protocol: HTTP` (plain HTTP routed by
// the Host header on ports.http, whatever its number); for the others protocol TCP (TLS by SNI) and timeoutSeconds
// 30 are the CRD's defaults and are left to the apiserver. An attachment whose apps ports would put HTTP and TLS on
// one listener gets no apps backends (aggregate/apps-ports.ts).
import type { ProxyBackend } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { compareText } from '../../workload/order';
import { shortHash } from '../../workload/hash';

/** The longest backend suffix, so that prefix + suffix fits a 63-character DNS label. */
const longestSuffix = 'kube-apiserver-internal';
const prefixBudget = 63 - longestSuffix.length - 1;

function sanitize(name: string, max: number): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, max)
    .replace(/-+$/, '');
}

/**
 * Backend name prefixes: the attachment name lower-cased, every character outside [a-z0-9-] replaced by '-', cut
 * to 39 characters, trailing dashes trimmed, then '-'. Two attachments whose prefixes would collide (cut or
 * replaced characters) both get a shorter cut plus a hash of their full name instead, so backend names stay unique.
 */
export function backendPrefixes(names: readonly string[]): Map<string, string> {
  const plain = new Map(names.map((n) => [n, sanitize(n, prefixBudget)]));
  const count = new Map<string, number>();
  for (const p of plain.values()) count.set(p, (count.get(p) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const [name, p] of plain) {
    if (p !== '' && count.get(p) === 1) out.set(name, `${p}-`);
    else {
      const cut = sanitize(name, prefixBudget - 7);
      out.set(name, `${cut === '' ? '' : `${cut}-`}${shortHash(name)}-`);
    }
  }
  return out;
}

const fixed = [
  { suffix: 'kube-apiserver', label: 'api', port: 6443, service: 'kube-apiserver', targetPort: 6443 },
  {
    suffix: 'kube-apiserver-internal',
    label: 'api-int',
    port: 6443,
    service: 'kube-apiserver',
    targetPort: 6443,
  },
  { suffix: 'oauth-openshift', label: 'oauth', port: 443, service: 'oauth-openshift', targetPort: 6443 },
  {
    suffix: 'ignition-server',
    label: 'ignition',
    port: 443,
    service: 'ignition-server-proxy',
    targetPort: 443,
  },
  {
    suffix: 'konnectivity-server',
    label: 'konnectivity',
    port: 443,
    service: 'konnectivity-server',
    targetPort: 8091,
  },
] as const;

/** The backends of one routing attachment. */
export function backendsFor(view: MemberView, prefix: string): ProxyBackend[] {
  const d = view.target.domain;
  const cpns = view.target.controlPlaneNamespace;
  const out: ProxyBackend[] = fixed.map((f) => ({
    name: `${prefix}${f.suffix}`,
    hostname: `${f.label}.${d}`,
    port: f.port,
    targetService: f.service,
    targetPort: f.targetPort,
    targetNamespace: cpns,
  }));
  const apps = view.apps;
  if (apps) {
    for (const [suffix, port, http] of [
      ['apps-http', apps.httpPort, true],
      ['apps-https', apps.httpsPort, false],
    ] as const) {
      out.push({
        name: `${prefix}${suffix}`,
        hostname: `*.apps.${d}`,
        port,
        targetService: apps.endpoint,
        targetPort: port,
        targetNamespace: 'default',
        ...(http ? { protocol: 'HTTP' as const } : {}),
      });
    }
  }
  if (view.sourceRanges.length > 0) out.push(...aliasBackends(view, prefix));
  return out;
}

function aliasBackends(view: MemberView, prefix: string): ProxyBackend[] {
  const target = {
    targetService: 'kube-apiserver',
    targetPort: 6443,
    targetNamespace: view.target.controlPlaneNamespace,
  };
  return [
    {
      name: `${prefix}kubernetes-hostname`,
      hostname: 'kubernetes',
      alternateHostnames: [
        'kubernetes.default',
        'kubernetes.default.svc',
        'kubernetes.default.svc.cluster.local',
        `kubernetes.${view.target.domain}`,
      ],
      port: 443,
      ...target,
      sourcePrefixRanges: [...view.sourceRanges],
    },
    {
      name: `${prefix}kubernetes-service`,
      hostname: 'kubernetes',
      port: 6443,
      ...target,
      sourcePrefixRanges: [...view.sourceRanges],
    },
  ];
}

/** Every routing attachment's backends, in attachment name order. */
export function proxyBackends(views: readonly MemberView[]): ProxyBackend[] {
  const sorted = [...views].sort((a, b) => compareText(a.target.name, b.target.name));
  const prefixes = backendPrefixes(sorted.map((v) => v.target.name));
  return sorted.flatMap((v) => backendsFor(v, prefixes.get(v.target.name) ?? ''));
}
