// DHCPServers for tests: the standalone one of examples/dhcpserver.yaml and the child the Infra reconciler writes
// for examples/infra.yaml + attachments.yaml, both as the apiserver stores them (uid, generation), plus variations.
import type { DHCPServer, DhcpServerSpec, Infra, InfraClusterAttachment } from '@oooi/api';
import { planInfra } from '../../infra';
import { loadYaml, world } from '../../testing/fixtures';

type SpecPatch = { readonly [K in keyof DhcpServerSpec]?: DhcpServerSpec[K] | undefined };

function stored(d: DHCPServer, spec: SpecPatch): DHCPServer {
  const merged = { ...d.spec, ...spec } as Record<string, unknown>;
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return {
    ...d,
    metadata: { ...d.metadata, uid: `uid-${d.metadata.name}`, generation: 1 },
    spec: merged as DhcpServerSpec,
  };
}

/** examples/dhcpserver.yaml (lab/lab-dhcp), with SPEC's top-level fields replaced (undefined removes one). */
export function exampleDhcpServer(spec: SpecPatch = {}): DHCPServer {
  const [d] = loadYaml('examples/dhcpserver.yaml') as [DHCPServer];
  return stored(d, spec);
}

/** The DHCPServer child of examples/infra.yaml with both attachments (clusters/vlan100-dhcp). */
export function infraChildDhcpServer(spec: SpecPatch = {}): DHCPServer {
  const [infra] = loadYaml('examples/infra.yaml') as [Infra];
  const attachments = loadYaml('examples/attachments.yaml') as InfraClusterAttachment[];
  const plan = planInfra(
    world({ ...infra, metadata: { ...infra.metadata, uid: 'uid-vlan100' } }, { attachments }),
  );
  if (plan.children.dhcp.action !== 'apply') throw new Error('the example Infra has no DHCPServer child');
  return stored(plan.children.dhcp.object, spec);
}
