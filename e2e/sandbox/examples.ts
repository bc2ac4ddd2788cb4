// The objects the sandbox applies: examples/infra.yaml and examples/attachments.yaml as a user would apply them,
// with the HA fields a caller asks for (the chaos harness of e2e/ha) merged into the Infra's components.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '@oooi/kube';
import { repoRoot } from '@oooi/rig';

/** HA mode per component, as the Infra's fields say it (undefined: that component runs one pod). */
export interface SandboxHa {
  /** `spec.infraComponents.dns.additionalServerIPs`. */
  readonly dnsAdditionalServerIPs?: readonly string[];
  /** `spec.infraComponents.dhcp.standbyServerIP`. */
  readonly dhcpStandbyServerIP?: string;
  /** `spec.infraComponents.proxy.highAvailability`. */
  readonly proxyHighAvailability?: {
    readonly replicaIPs: readonly string[];
    readonly virtualRouterID: number;
  };
}

/** The examples' objects with HA's fields on the Infra (pure but for reading the two files). */
export function examples(ha: SandboxHa): KubeObject[] {
  const objs = ['infra.yaml', 'attachments.yaml'].flatMap((f) =>
    parseAllDocuments(readFileSync(join(repoRoot, 'examples', f), 'utf8')).map((d) => d.toJS() as KubeObject),
  );
  type Components = { infraComponents: Record<string, Record<string, unknown>> };
  for (const o of objs.filter((x) => x.kind === 'Infra')) {
    const c = (o.spec as Components).infraComponents;
    if (ha.dhcpStandbyServerIP !== undefined) c.dhcp!.standbyServerIP = ha.dhcpStandbyServerIP;
    if (ha.dnsAdditionalServerIPs?.length) c.dns!.additionalServerIPs = [...ha.dnsAdditionalServerIPs];
    if (ha.proxyHighAvailability !== undefined)
      c.proxy!.highAvailability = {
        replicaIPs: [...ha.proxyHighAvailability.replicaIPs],
        virtualRouterID: ha.proxyHighAvailability.virtualRouterID,
      };
  }
  return objs;
}

/** The Deployments of the three workloads for HA: each component's first, then its replicas'. */
export function workloadDeployments(infra: string, ha: SandboxHa): string[] {
  return [
    `${infra}-dns`,
    ...(ha.dnsAdditionalServerIPs ?? []).map((_, i) => `${infra}-dns-${i + 1}`),
    `${infra}-dhcp`,
    ...(ha.dhcpStandbyServerIP !== undefined ? [`${infra}-dhcp-1`] : []),
    `${infra}-proxy`,
    ...(ha.proxyHighAvailability !== undefined ? [`${infra}-proxy-1`] : []),
  ];
}
