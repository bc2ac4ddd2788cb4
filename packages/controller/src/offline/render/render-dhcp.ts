// The DHCP outputs of `oooi render` (the DHCP renderer in ../dhcp decides them): for every DHCPServer the
// controller would serve, its objects as files of their own (the owned children, then the VMI-reader Roles and
// RoleBindings in the namespaces it lists) and `dhcp/<namespace>-<name>/config.json`, exactly the ConfigMap's
// value, which `oooi-dhcp --config` serves as is. The renderer applies the CRD defaults itself.
import { formatFieldError } from '@oooi/api';
import type { DHCPServer } from '@oooi/api';
import { renderDhcpServer } from '../../dhcp';
import { objectFileName } from './render-infras';
import type { RenderedFile } from './render-infras';
import { toYaml } from './yaml-text';

export function renderDhcpOutputs(
  dhcpServers: readonly DHCPServer[],
  defaultImage: string,
): { files: RenderedFile[]; errors: string[] } {
  const files: RenderedFile[] = [];
  const errors: string[] = [];
  for (const dhcp of dhcpServers) {
    const rendered = renderDhcpServer(dhcp, { defaultImage });
    const id = `DHCPServer ${dhcp.metadata.namespace ?? 'default'}/${dhcp.metadata.name}`;
    if (!rendered.ok) {
      errors.push(...rendered.errors.map((e) => `${id}: ${formatFieldError(e)}`));
      continue;
    }
    for (const obj of rendered.value.objects) {
      files.push({
        name: objectFileName(obj as { kind: string; metadata: { name: string; namespace?: string } }),
        content: toYaml(obj),
      });
    }
    for (const [name, content] of Object.entries(rendered.value.files)) {
      files.push({ name: `${rendered.value.fileDir}/${name}`, content });
    }
  }
  return { files, errors };
}
