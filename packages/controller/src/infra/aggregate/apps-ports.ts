// The apps ports of an Infra's attachments, checked against each other and the control-plane routes: one Envoy
// listener serves either plain HTTP routed by Host (an attachment's apps ports.http) or TLS routed by SNI (the
// control-plane routes on 443 and 6443, every attachment's apps ports.https), never both. An attachment whose
// ports.http is one of those TLS ports gets no apps endpoint, and the reason names the port and the other
// attachment; when two attachments clash (one's http is the other's https) both are refused, as duplicate domains
// are — neither silently wins. Attachments sharing ports.http (one listener, a virtual host each) or ports.https (a
// filter chain each) are fine.
import type { AppsEndpoint } from './apps-ingress';

/** The ports of the control-plane backends (desired/proxy-backends.ts): TLS by SNI. */
export const CONTROL_PLANE_PORTS: readonly number[] = [443, 6443];

export interface AppsPorts {
  /** The attachment's name. */
  readonly name: string;
  readonly apps: AppsEndpoint | undefined;
}

const rule = 'a port serves HTTP by Host or TLS by SNI, not both';

/** Attachment name → why its apps endpoint is refused, for those whose apps ports clash; names in order. */
export function appsPortClashes(attachments: readonly AppsPorts[]): Map<string, string> {
  const withApps = attachments.flatMap((a) => (a.apps ? [{ name: a.name, apps: a.apps }] : []));
  const out = new Map<string, string[]>();
  const add = (name: string, why: string): void => {
    out.set(name, [...(out.get(name) ?? []), why]);
  };
  for (const a of withApps) {
    const http = a.apps.httpPort;
    if (CONTROL_PLANE_PORTS.includes(http)) {
      add(
        a.name,
        `apps ingress ports.http ${http} is a TLS port of the proxy (the control-plane routes use ${CONTROL_PLANE_PORTS.join(' and ')}): ${rule}`,
      );
    }
    for (const b of withApps) {
      if (b.name === a.name || b.apps.httpsPort !== http) continue;
      add(
        a.name,
        `apps ingress ports.http ${http} is spec.appsIngress.ports.https of attachment ${b.name}: ${rule}`,
      );
      add(
        b.name,
        `apps ingress ports.https ${http} is spec.appsIngress.ports.http of attachment ${a.name}: ${rule}`,
      );
    }
  }
  return new Map([...out].map(([name, why]) => [name, why.join('; ')]));
}
