// DNSServer → the files CoreDNS reads: `Corefile` plus one zone file per view that has records. These are the
// ConfigMap's keys and, for `oooi render`, the files of `dns/<namespace>-<name>/`; the Corefile names the zone
// files by relative name, so it runs from its own directory (the Deployment sets workingDir to the mount).
import type { DNSServer, ValidationResult } from '@oooi/api';
import { renderCorefile } from './corefile';
import type { DnsModel, ViewName } from './dns-model';
import { validateDnsServer } from '../validate/validate-dns-server';
import { renderZoneFile, viewSerial } from './zone-file';

/** The key of the Corefile in the ConfigMap (and its file name). */
export const COREFILE_KEY = 'Corefile';

export interface DnsConfig {
  readonly model: DnsModel;
  /** File name → content: `Corefile` first, then the zone files. */
  readonly files: Readonly<Record<string, string>>;
  /** Records served, both views. */
  readonly recordCount: number;
  /** Per view, the serial of its records (also in the Corefile's nsid and the zone's SOA). */
  readonly serials: Readonly<Record<ViewName, number>>;
}

/** Renders the CoreDNS configuration of DNS, or every problem that prevents it. */
export function renderDnsConfig(dns: DNSServer): ValidationResult<DnsConfig> {
  const checked = validateDnsServer(dns);
  if (!checked.ok) return checked;
  const model = checked.value;
  const [vlan, pod] = model.views;
  const zones = [renderZoneFile(model, vlan), renderZoneFile(model, pod)] as const;
  const files: Record<string, string> = { [COREFILE_KEY]: renderCorefile(model, zones) };
  for (const zone of zones) if (zone) files[zone.fileName] = zone.text;
  return {
    ok: true,
    value: {
      model,
      files,
      recordCount: vlan.records.length + pod.records.length,
      serials: { vlan: viewSerial(vlan), 'pod-network': viewSerial(pod) },
    },
  };
}
