// The DNS outputs of `oooi render` (the DNS renderer in ../dns decides them): for every DNSServer the controller
// would serve, its workload objects as files of their own and `dns/<namespace>-<name>/` holding exactly the
// ConfigMap's keys, runnable as is. A generated DNSServer is defaulted first, as the apiserver stores it.
import { applyDefaults, kindInfo } from '@oooi/api';
import type { DNSServer, DnsServerSpec } from '@oooi/api';
import { planDnsServer } from '../../dns';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { RenderedFile } from './render-infras';
import { workloadOutputs } from './workload-outputs';

export function renderDnsOutputs(
  dnsServers: readonly DNSServer[],
  defaultImage: string,
  networkPolicy: NetworkPolicyOptions,
  nodeLossTolerationSeconds?: number,
): { files: RenderedFile[]; errors: string[] } {
  return workloadOutputs(dnsServers, (dns) => {
    const spec = applyDefaults<DnsServerSpec>(kindInfo('DNSServer')!.spec, dns.spec);
    return planDnsServer(
      { ...dns, spec },
      {
        defaultImage,
        networkPolicy,
        ...(nodeLossTolerationSeconds !== undefined ? { nodeLossTolerationSeconds } : {}),
      },
    );
  });
}
