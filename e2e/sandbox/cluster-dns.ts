// A stand-in for the management cluster's DNS on the rig's pod network: real CoreDNS answering `cluster.local`
// from a zone of the Service names we give it (the control-plane Services the proxy's clusters resolve), and
// NXDOMAIN — never SERVFAIL — for every other name, because Envoy's resolver gives up on a search-list candidate
// that gets SERVFAIL. Pods get it through their resolv.conf (`resolvConf`), as the kubelet would write it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rigBin, waitFor, type NetScope, type Network, type TrackedProc } from '@oooi/rig';

export interface ClusterDnsOptions {
  readonly scope: NetScope;
  readonly podNetwork: Network;
  /** Its address on the pod network. */
  readonly address: string;
  /** Fully qualified names under cluster.local → IPv4 address. */
  readonly records: Readonly<Record<string, string>>;
}

export interface ClusterDns {
  readonly address: string;
  /** The resolv.conf of a pod in NAMESPACE. */
  resolvConf(namespace: string): string;
  stop(): Promise<void>;
}

function zone(records: Readonly<Record<string, string>>): string {
  const lines = [
    '$ORIGIN cluster.local.',
    '@ 30 IN SOA ns.dns.cluster.local. hostmaster.cluster.local. 1 7200 1800 86400 30',
    '@ 30 IN NS ns.dns.cluster.local.',
  ];
  for (const [name, ip] of Object.entries(records).sort()) {
    if (!name.endsWith('.cluster.local')) throw new Error(`cluster DNS: ${name} is not under cluster.local`);
    lines.push(`${name}. 30 IN A ${ip}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function startClusterDns(o: ClusterDnsOptions): Promise<ClusterDns> {
  const ns = await o.scope.createNamespace('clusterdns');
  await o.podNetwork.attach(ns, { address: `${o.address}/24` });
  const dir = o.scope.dir;
  const zoneFile = join(dir, 'db.cluster.local');
  const corefile = join(dir, 'cluster-dns.Corefile');
  await writeFile(zoneFile, zone(o.records));
  await writeFile(
    corefile,
    [
      `cluster.local:53 {\n  bind ${o.address}\n  file ${zoneFile}\n}`,
      `.:53 {\n  bind ${o.address}\n  template ANY ANY {\n    rcode NXDOMAIN\n  }\n}`,
      '',
    ].join('\n'),
  );
  const proc: TrackedProc = ns.spawn([await rigBin('coredns'), '-conf', corefile], { label: 'cluster-dns' });
  await waitFor(
    'cluster DNS listening',
    async () => {
      if (!proc.alive()) throw new Error(`cluster DNS exited: ${proc.log().slice(-2000)}`);
      return (await ns.exec(['ss', '-lunH', `sport = :53`])).stdout.includes(':53');
    },
    { timeoutMs: 15_000, everyMs: 100 },
  );
  return {
    address: o.address,
    resolvConf: (namespace) =>
      [
        `nameserver ${o.address}`,
        `search ${namespace}.svc.cluster.local svc.cluster.local cluster.local`,
        'options ndots:5',
        '',
      ].join('\n'),
    stop: () => proc.stop(),
  };
}
