// Backends shaped like the ones the Infra reconciler writes for one hosted cluster (test data only).
import type { ProxyBackend } from '@oooi/api';

export interface AttachmentFixture {
  readonly name: string;
  readonly domain: string;
  readonly namespace: string;
  /** Worker addresses for the source-scoped kubernetes aliases; none = no aliases. */
  readonly sources?: readonly string[];
  /** apps VIP for *.apps (HTTP by Host on 80, TLS by SNI on 443). */
  readonly appsVip?: string;
  /** The apps ports (appsIngress.ports). @default { http: 80, https: 443 } */
  readonly appsPorts?: { readonly http: number; readonly https: number };
}

export function attachmentBackends(a: AttachmentFixture): ProxyBackend[] {
  const p = `${a.name}-`;
  const ns = a.namespace;
  const out: ProxyBackend[] = [
    {
      name: `${p}kube-apiserver`,
      hostname: `api.${a.domain}`,
      port: 6443,
      targetService: 'kube-apiserver',
      targetPort: 6443,
      targetNamespace: ns,
    },
    {
      name: `${p}kube-apiserver-internal`,
      hostname: `api-int.${a.domain}`,
      port: 6443,
      targetService: 'kube-apiserver',
      targetPort: 6443,
      targetNamespace: ns,
    },
    {
      name: `${p}oauth-openshift`,
      hostname: `oauth.${a.domain}`,
      port: 443,
      targetService: 'oauth-openshift',
      targetPort: 6443,
      targetNamespace: ns,
    },
    {
      name: `${p}ignition-server`,
      hostname: `ignition.${a.domain}`,
      port: 443,
      targetService: 'ignition-server-proxy',
      targetPort: 443,
      targetNamespace: ns,
    },
    {
      name: `${p}konnectivity-server`,
      hostname: `konnectivity.${a.domain}`,
      port: 443,
      targetService: 'konnectivity-server',
      targetPort: 8091,
      targetNamespace: ns,
    },
  ];
  if (a.appsVip) {
    for (const [suffix, port, protocol] of [
      ['apps-http', a.appsPorts?.http ?? 80, 'HTTP'],
      ['apps-https', a.appsPorts?.https ?? 443, undefined],
    ] as const) {
      out.push({
        name: `${p}${suffix}`,
        hostname: `*.apps.${a.domain}`,
        port,
        targetService: a.appsVip,
        targetPort: port,
        targetNamespace: 'default',
        ...(protocol ? { protocol } : {}),
      });
    }
  }
  if (a.sources && a.sources.length > 0) {
    const target = { targetService: 'kube-apiserver', targetPort: 6443, targetNamespace: ns };
    out.push(
      {
        name: `${p}kubernetes-hostname`,
        hostname: 'kubernetes',
        alternateHostnames: [
          'kubernetes.default',
          'kubernetes.default.svc',
          'kubernetes.default.svc.cluster.local',
          `kubernetes.${a.domain}`,
        ],
        port: 443,
        ...target,
        sourcePrefixRanges: [...a.sources],
      },
      {
        name: `${p}kubernetes-service`,
        hostname: 'kubernetes',
        port: 6443,
        ...target,
        sourcePrefixRanges: [...a.sources],
      },
    );
  }
  return out;
}

/** N attachments named a0000, a0001, … each with 5 backends (+ apps and aliases when asked). */
export function manyAttachments(n: number, extras = false): ProxyBackend[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `a${String(i).padStart(4, '0')}`;
    return attachmentBackends({
      name,
      domain: `${name}.example.test`,
      namespace: `clusters-${name}`,
      ...(extras
        ? { sources: [`198.51.100.${(i % 250) + 1}/32`], appsVip: `203.0.113.${(i % 250) + 1}` }
        : {}),
    });
  }).flat();
}

/** Deterministic shuffle (a seeded LCG), so "shuffled input" tests are repeatable. */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
