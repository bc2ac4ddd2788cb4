// The DNSServer reconciler's memo of renderDnsConfig, state of the shell as infra/reconcile/infra-plans.ts is: one
// rendered configuration per DNSServer, kept while what rendering reads (namespace, name, spec) is what it last
// rendered. Every status write hands the reconciler a new object whose spec did not change, and rendering validates
// and writes out every record again (two views of up to 1,400 at 1,000 attachments; bench/controller --profile).
import type { DNSServer, ValidationResult } from '@oooi/api';
import { renderDnsConfig, type DnsConfig } from '../render/dns-config';

export class DnsConfigMemo {
  private readonly byName = new Map<
    string,
    { readonly input: string; readonly config: ValidationResult<DnsConfig> }
  >();
  private rendered = 0;

  /** renderDnsConfig(DNS): the last result for this DNSServer while its namespace, name and spec are the same. */
  readonly render = (dns: DNSServer): ValidationResult<DnsConfig> => {
    const key = `${dns.metadata.namespace ?? ''}/${dns.metadata.name}`;
    const input = JSON.stringify(dns.spec ?? null);
    const last = this.byName.get(key);
    if (last?.input === input) return last.config;
    const config = renderDnsConfig(dns);
    this.rendered += 1;
    this.byName.set(key, { input, config });
    return config;
  };

  /** A DNSServer gone or terminating: its entry goes. */
  forget(namespace: string, name: string): void {
    this.byName.delete(`${namespace}/${name}`);
  }

  /** Configurations rendered (not taken from the memo), and DNSServers held: for tests. */
  get counts(): { readonly rendered: number; readonly held: number } {
    return { rendered: this.rendered, held: this.byName.size };
  }
}
