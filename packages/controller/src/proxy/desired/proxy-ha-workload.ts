// The two replica Deployments of a ProxyServer in HA mode (spec.networkConfig.highAvailability; docs/high-availability.md
// "Proxy"). Each runs Envoy + oooi-xds as the single-pod workload does, plus keepalived, on its own Multus static
// address (replicaIPs[i]); keepalived moves spec.networkConfig.serverIP, the floating address, between the two.
//
// - Names: replica 0 keeps the name of the single-pod Deployment (`<w>`), so turning HA on rolls that Deployment in
//   place rather than deleting it and starting over; replica 1 is `<w>-1`. A Deployment's selector cannot change,
//   so replica 0 keeps the ProxyServer's pod selector, which the pods of replica 1 match too; that is safe because a
//   ReplicaSet adopts only pods without a controller and its own selector carries its pod-template-hash, and the
//   Deployment controller counts only the pods of its own ReplicaSets. Replica 1's selector adds the replica label,
//   so it never counts replica 0's pods. Unlike the DNS replicas (workload/names.ts replicaNames), both replicas'
//   pods keep the owner label: it is the proxy's pod selector (workload/proxy-pods.ts) that the ProxyServer's
//   Service and every attachment's external Service use, so both select both replicas unchanged.
// - Rollouts: one replica at a time (workload/rollout-gate.ts, applied in the plan), replica 0 first. Turning HA mode
//   on, replica 1 is created only once replica 0 no longer sits on serverIP (onAddress), so the floating address is
//   never taken while the single pod still holds it as its own.
// - Termination order: keepalived gets SIGTERM at once (it has no preStop) and, as master, sends priority 0, so the
//   peer takes the address in well under a second; oooi-xds, stopping at the same moment, writes `1` in the track
//   file too. Envoy's preStop sleeps DRAIN_SECONDS first: the connections open through this pod keep flowing while
//   no new one arrives (the address is gone, and the terminating pod left the Service's endpoints); then Envoy gets
//   SIGTERM and exits, cutting what is still open. TLS passthrough streams are opaque to Envoy, so it cannot ask
//   them to close: the sleep is the drain.
// - keepalived runs as root with every capability dropped but NET_ADMIN (to add and remove the address) and NET_RAW
//   (VRRP is IP protocol 112 on a raw socket); a non-root process would get neither (no ambient capabilities, and
//   no_new_privs blocks file capabilities). Envoy and oooi-xds stay non-root as in the single-pod workload.
import { GROUP, type ProxyHighAvailability } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { shortHash } from '../../workload/hash';
import { ProxyServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { multusNetworks, MULTUS_NETWORKS_ANNOTATION } from '../../workload/multus';
import { nodeLossTolerations, replicaPlacement } from '../../workload/placement';
import { containerSecurityContext, podSecurityContext } from '../../workload/security';
import { keepalivedKey, KEEPALIVED_CONF_DIR, SHARED_RUN_DIR, TRACK_FILE } from '../render/keepalived-conf';
import {
  BOOTSTRAP_HASH_ANNOTATION,
  envoyContainer,
  PROXY_UID,
  xdsContainer,
  type ProxyDeploymentInput,
} from './proxy-workload';
import type { ProxyChildNames } from './names';

/** The label telling the two replicas' pods apart (0 or 1). */
export const REPLICA_LABEL = `${GROUP}/replica`;
/** The annotation carrying the hash of this replica's keepalived.conf (keepalived reads it once). */
export const KEEPALIVED_HASH_ANNOTATION = `${GROUP}/keepalived-hash`;
/** How long Envoy keeps serving the open connections after the address has moved, before it gets SIGTERM. */
export const DRAIN_SECONDS = 30;
/** The pod's grace period: the drain, then time for Envoy to exit. */
export const TERMINATION_GRACE_SECONDS = DRAIN_SECONDS + 15;

export type Replica = 0 | 1;

/** The Deployment of replica R: `<w>` (the single-pod name) for 0, `<w>-1` for 1. */
export function replicaDeploymentName(names: ProxyChildNames, r: Replica): string {
  return r === 0 ? names.workload : `${names.workload}-1`;
}

/** The Deployment's (immutable) selector: the ProxyServer's pod selector, plus the replica label for replica 1. */
export function replicaSelector(names: ProxyChildNames, r: Replica): Record<string, string> {
  return r === 0 ? { ...names.selector } : { ...names.selector, [REPLICA_LABEL]: '1' };
}

/** Whether the pod template of the live Deployment LIVE puts its pod on ADDRESS (its Multus static IP). */
export function onAddress(live: KubeObject | undefined, address: string): boolean {
  const template = (live?.spec as { template?: { metadata?: { annotations?: Record<string, string> } } })
    ?.template;
  const networks = template?.metadata?.annotations?.[MULTUS_NETWORKS_ANNOTATION];
  return networks !== undefined && networks.includes(`"${address}/`);
}

export interface ProxyReplicaInput extends ProxyDeploymentInput {
  readonly highAvailability: ProxyHighAvailability;
  readonly replica: Replica;
  /** This replica's keepalived.conf (its hash goes on the pod template). */
  readonly keepalivedConf: string;
  readonly keepalivedImage: string;
}

function keepalivedContainer(image: string): Record<string, unknown> {
  return {
    name: 'keepalived',
    image,
    command: ['/usr/sbin/keepalived'],
    args: [
      '--dont-fork',
      '--vrrp',
      '--log-console',
      '--log-detail',
      '--no-syslog',
      `--use-file=${KEEPALIVED_CONF_DIR}/keepalived.conf`,
      `--pid=${SHARED_RUN_DIR}/keepalived.pid`,
      `--vrrp_pid=${SHARED_RUN_DIR}/keepalived-vrrp.pid`,
    ],
    resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '64Mi' } },
    securityContext: {
      ...containerSecurityContext(['NET_ADMIN', 'NET_RAW']),
      runAsNonRoot: false,
      runAsUser: 0,
      runAsGroup: 0,
    },
    volumeMounts: [
      { name: 'keepalived', mountPath: KEEPALIVED_CONF_DIR, readOnly: true },
      { name: 'run', mountPath: SHARED_RUN_DIR },
    ],
  };
}

function haContainers(i: ProxyReplicaInput): Record<string, unknown>[] {
  const envoy = { ...envoyContainer(i.spec), lifecycle: { preStop: { sleep: { seconds: DRAIN_SECONDS } } } };
  const xds = xdsContainer(i.proxy, i.spec);
  const withTrack = {
    ...xds,
    args: [
      ...(xds.args as string[]),
      '--track-file',
      TRACK_FILE,
      '--replica-address',
      i.highAvailability.replicaIPs[i.replica]!,
    ],
    volumeMounts: [{ name: 'run', mountPath: SHARED_RUN_DIR }],
  };
  return [envoy, withTrack, keepalivedContainer(i.keepalivedImage)];
}

/** Replica I.replica's Deployment: one pod on replicaIPs[replica], Recreate (its address is its own). */
export function desiredProxyReplicaDeployment(i: ProxyReplicaInput): KubeObject {
  const { proxy, spec, names, replica } = i;
  const ip = i.highAvailability.replicaIPs[replica]!;
  const networks = multusNetworks({ ...spec.networkConfig, serverIP: ip }, namespaceOf(proxy));
  const name = replicaDeploymentName(names, replica);
  const labels = { ...names.labels, [REPLICA_LABEL]: String(replica) };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: ownedChildMeta(ProxyServerKind, proxy, name, labels),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: replicaSelector(names, replica) },
      strategy: { type: 'Recreate' },
      template: {
        metadata: {
          labels,
          annotations: {
            'kubectl.kubernetes.io/default-container': 'envoy',
            [BOOTSTRAP_HASH_ANNOTATION]: shortHash(i.bootstrap, 16),
            [KEEPALIVED_HASH_ANNOTATION]: shortHash(i.keepalivedConf, 16),
            ...(networks ? { [MULTUS_NETWORKS_ANNOTATION]: networks } : {}),
          },
        },
        spec: {
          serviceAccountName: names.workload,
          automountServiceAccountToken: true,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          securityContext: podSecurityContext({ uid: PROXY_UID, lowestPort: 0 }),
          // never on one node: a node's loss must leave the other replica serving (replica 1 carries the required
          // anti-affinity; the scheduler enforces it both ways, workload/placement.ts)
          ...(replica === 0 ? {} : { affinity: replicaPlacement(replica, names.selector) }),
          containers: haContainers(i),
          volumes: [
            { name: 'bootstrap', configMap: { name: names.configMap } },
            {
              name: 'keepalived',
              configMap: {
                name: names.configMap,
                items: [{ key: keepalivedKey(replica), path: 'keepalived.conf' }],
              },
            },
            { name: 'run', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
          ],
          tolerations: nodeLossTolerations(i.nodeLossTolerationSeconds),
        },
      },
    },
  };
}
