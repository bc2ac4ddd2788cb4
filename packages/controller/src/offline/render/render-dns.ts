// The DNS outputs of `oooi render` (the DNS renderer in ../dns decides them): for every DNSServer the controller
// would serve, its workload objects as files of their own and `dns/<namespace>-<name>/` holding exactly the
// ConfigMap's keys, runnable as is. A generated DNSServer is defaulted first, as the apiserver stores it.
import { applyDefaults, formatFieldError, kindInfo } from '@oooi/api';
import type { DNSServer, DnsServerSpec } from '@oooi/api';
import { renderDnsServer } from '../../dns';
import { objectFileName } from './render-infras';
import type { RenderedFile } from './render-infras';
import { toYaml } from './yaml-text';

export function renderDnsOutputs(
  dnsServers: readonly DNSServer[],
  defaultImage: string,
): { files: RenderedFile[]; errors: string[] } {
  const files: RenderedFile[] = [];
  const errors: string[] = [];
  for (const dns of dnsServers) {
    const spec = applyDefaults<DnsServerSpec>(kindInfo('DNSServer')!.spec, dns.spec);
    const rendered = renderDnsServer({ ...dns, spec }, { defaultImage });
    const id = `DNSServer ${dns.metadata.namespace ?? 'default'}/${dns.metadata.name}`;
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
