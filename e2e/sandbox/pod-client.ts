// A client pod of the management cluster, for what only the pod network sees: a namespace on the pod network with
// its default route through eth0, as a pod has, and kube-proxy's part for the Services it is given — each port of
// a Service's ClusterIP DNATed to the pod behind it (its targetPort, a container port's name resolved through the
// pod's Deployment), with iptables inside that namespace only.
import type { KubeObject } from '@oooi/kube';
import { rigBin, type NetScope, type Netns, type Network } from '@oooi/rig';

interface ServicePort {
  readonly port: number;
  readonly protocol?: string;
  readonly targetPort?: number | string;
}

interface ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
}

/** A Service and the pod behind it: its eth0 address and the Deployment it runs for (its container ports). */
export interface ServiceBackend {
  readonly service: KubeObject;
  readonly podIP: string;
  readonly deployment: KubeObject;
}

/** One DNAT rule per Service port: `[clusterIP, protocol, port, podIP:targetPort]`. */
export function serviceRules(b: ServiceBackend): string[][] {
  const spec = b.service.spec as { clusterIP?: string; ports?: ServicePort[] } | undefined;
  const clusterIP = spec?.clusterIP;
  if (clusterIP === undefined || clusterIP === 'None')
    throw new Error(`Service ${b.service.metadata?.name ?? ''} has no ClusterIP`);
  const containers =
    (
      b.deployment.spec as
        { template?: { spec?: { containers?: { ports?: ContainerPort[] }[] } } } | undefined
    )?.template?.spec?.containers ?? [];
  const named = new Map(containers.flatMap((c) => c.ports ?? []).map((p) => [p.name, p.containerPort]));
  return (spec?.ports ?? []).map((p) => {
    const target = typeof p.targetPort === 'string' ? named.get(p.targetPort) : (p.targetPort ?? p.port);
    if (target === undefined)
      throw new Error(
        `Service ${b.service.metadata?.name ?? ''}: no container port named ${String(p.targetPort)}`,
      );
    return [clusterIP, (p.protocol ?? 'TCP').toLowerCase(), String(p.port), `${b.podIP}:${target}`];
  });
}

/** The client pod at ADDRESS ("a.b.c.d/len") on POD, routing through GATEWAY, reaching BACKENDS by ClusterIP. */
export async function startPodClient(
  scope: NetScope,
  pod: Network,
  o: { readonly address: string; readonly gateway: string; readonly backends: readonly ServiceBackend[] },
): Promise<Netns> {
  const ns = await scope.createNamespace('mgmt-pod');
  await pod.attach(ns, { address: o.address });
  const must = async (argv: string[]) => {
    const r = await ns.exec(argv);
    if (r.code !== 0) throw new Error(`pod client: ${argv.join(' ')}: ${r.stderr}`);
  };
  await must([await rigBin('ip'), 'route', 'add', 'default', 'via', o.gateway, 'dev', 'eth0']);
  const iptables = await rigBin('iptables');
  for (const b of o.backends) {
    for (const [ip, proto, port, to] of serviceRules(b)) {
      await must([iptables, '-t', 'nat', '-A', 'OUTPUT', '-d', `${ip!}/32`, '-p', proto!, '--dport', port!,
        '-j', 'DNAT', '--to-destination', to!]); // prettier-ignore
    }
  }
  return ns;
}
