// The pod runner's reading of a kubeconfig: where its current server listens, when that is on loopback (a pod's
// network namespace cannot reach the host's loopback, so the runner bridges that port into the pod).
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';

/** The port of a kubeconfig's current server when it is on loopback (so it must be bridged into the pod). */
export async function loopbackApiPort(kubeconfig: string): Promise<number | undefined> {
  const kc = parseYaml(await readFile(kubeconfig, 'utf8')) as {
    'current-context'?: string;
    contexts?: { name: string; context: { cluster: string } }[];
    clusters?: { name: string; cluster: { server: string } }[];
  };
  const ctxName = kc['current-context'];
  const clusterName = kc.contexts?.find((c) => c.name === ctxName)?.context.cluster;
  const server = kc.clusters?.find((c) => c.name === clusterName)?.cluster.server;
  if (server === undefined) return undefined;
  const u = new URL(server);
  if (!['127.0.0.1', 'localhost'].includes(u.hostname)) return undefined;
  return Number(u.port || '443');
}
