// ProxyServers for tests: the child the Infra reconciler writes for examples/infra.yaml + attachments.yaml, as the
// apiserver stores it (uid, generation, the CRD's defaults), and a standalone one with no backends.
import type { Infra, InfraClusterAttachment, ProxyServer, ProxyServerSpec } from '@oooi/api';
import { planInfra } from '../../infra';
import { loadYaml, world } from '../../testing/fixtures';
import { defaultedProxySpec } from '../desired/plan-proxy-server';

type SpecPatch = { readonly [K in keyof ProxyServerSpec]?: ProxyServerSpec[K] | undefined };

function stored(p: ProxyServer, spec: SpecPatch): ProxyServer {
  const merged = { ...defaultedProxySpec(p), ...spec } as Record<string, unknown>;
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return {
    ...p,
    metadata: { ...p.metadata, uid: `uid-${p.metadata.name}`, generation: 1 },
    spec: merged as ProxyServerSpec,
  };
}

/** The ProxyServer child of examples/infra.yaml with both attachments (clusters/vlan100-proxy). */
export function infraChildProxyServer(spec: SpecPatch = {}): ProxyServer {
  const [infra] = loadYaml('examples/infra.yaml') as [Infra];
  const attachments = loadYaml('examples/attachments.yaml') as InfraClusterAttachment[];
  const plan = planInfra(
    world({ ...infra, metadata: { ...infra.metadata, uid: 'uid-vlan100' } }, { attachments }),
  );
  if (plan.children.proxy.action !== 'apply') throw new Error('the example Infra has no ProxyServer child');
  return stored(plan.children.proxy.object, spec);
}

/** A standalone ProxyServer lab/edge on 198.51.100.0/25 with no backends and no images (the operator's defaults). */
export function standaloneProxyServer(spec: SpecPatch = {}): ProxyServer {
  return stored(
    {
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'ProxyServer',
      metadata: { name: 'edge', namespace: 'lab' },
      spec: {
        networkConfig: {
          cidr: '198.51.100.0/25',
          serverIP: '198.51.100.4',
          networkAttachmentName: 'lab-vlan',
        },
      },
    },
    spec,
  );
}
