// The command lines of the five control-plane components (flags as the upstream projects document them). Everything
// listens on 127.0.0.1 only, on ports chosen at run time; every file a component writes stays in the run dir.
import { join } from 'node:path';
import type { Pki } from './pki';
import type { ComponentName, ComponentState } from './state';

/** The ports of one run, in the order they are chosen. */
export const portNames = ['etcd', 'etcdPeer', 'apiserver', 'controllerManager', 'scheduler'] as const;
export type PortName = (typeof portNames)[number];
export type Ports = Readonly<Record<PortName, number>>;

/** The ports each component listens on (a component started later only connects to earlier ones' ports). */
export const componentPorts: Readonly<Record<ComponentName, readonly PortName[]>> = {
  etcd: ['etcd', 'etcdPeer'],
  apiserver: ['apiserver'],
  'controller-manager': ['controllerManager'],
  scheduler: ['scheduler'],
  kwok: [],
};

export interface ComponentInputs {
  readonly dir: string;
  readonly ports: Ports;
  readonly pki: Pki;
  readonly kubeconfig: string;
  readonly bins: Readonly<Record<'etcd' | 'apiserver' | 'kcm' | 'scheduler' | 'kwok' | 'stages', string>>;
}

const SERVICE_CIDR = '10.96.0.0/16';

function etcd(i: ComponentInputs): ComponentState {
  const c = `http://127.0.0.1:${i.ports.etcd}`;
  const p = `http://127.0.0.1:${i.ports.etcdPeer}`;
  return {
    argv: [
      i.bins.etcd, '--name', 'rig', '--data-dir', join(i.dir, 'etcd'),
      '--listen-client-urls', c, '--advertise-client-urls', c,
      '--listen-peer-urls', p, '--initial-advertise-peer-urls', p, '--initial-cluster', `rig=${p}`,
      '--unsafe-no-fsync', '--log-level=warn',
    ], // prettier-ignore
    logFile: join(i.dir, 'etcd.log'),
    healthUrl: `${c}/health`,
  };
}

function apiserver(i: ComponentInputs): ComponentState {
  const { pki } = i;
  return {
    argv: [
      i.bins.apiserver,
      `--etcd-servers=http://127.0.0.1:${i.ports.etcd}`,
      '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${i.ports.apiserver}`,
      `--cert-dir=${join(i.dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.servingCert}`, `--tls-private-key-file=${pki.servingKey}`, `--client-ca-file=${pki.caCert}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${pki.saPub}`, `--service-account-signing-key-file=${pki.saKey}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`, '--authorization-mode=RBAC',
      // on in OpenShift: blockOwnerDeletion needs update on the owner's finalizers
      '--enable-admission-plugins=OwnerReferencesPermissionEnforcement',
      '--endpoint-reconciler-type=none', '--profiling=false', '--shutdown-delay-duration=0s', '--shutdown-watch-termination-grace-period=3s',
    ], // prettier-ignore
    logFile: join(i.dir, 'apiserver.log'),
    healthUrl: `https://127.0.0.1:${i.ports.apiserver}/readyz`,
  };
}

function controllerManager(i: ComponentInputs): ComponentState {
  return {
    argv: [
      i.bins.kcm, `--kubeconfig=${i.kubeconfig}`,
      '--bind-address=127.0.0.1', `--secure-port=${i.ports.controllerManager}`, `--cert-dir=${join(i.dir, 'kcm-certs')}`,
      "--controllers=*", '--use-service-account-credentials=false', '--leader-elect=false',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      `--service-account-private-key-file=${i.pki.saKey}`, `--root-ca-file=${i.pki.caCert}`,
    ], // prettier-ignore
    logFile: join(i.dir, 'controller-manager.log'),
    healthUrl: `https://127.0.0.1:${i.ports.controllerManager}/healthz`,
  };
}

function scheduler(i: ComponentInputs): ComponentState {
  return {
    argv: [
      i.bins.scheduler, `--kubeconfig=${i.kubeconfig}`,
      '--bind-address=127.0.0.1', `--secure-port=${i.ports.scheduler}`, `--cert-dir=${join(i.dir, 'scheduler-certs')}`,
      '--leader-elect=false',
    ], // prettier-ignore
    logFile: join(i.dir, 'scheduler.log'),
    healthUrl: `https://127.0.0.1:${i.ports.scheduler}/readyz`,
  };
}

/** Annotation kwok manages nodes by (the rig's fake nodes carry it). */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

function kwok(i: ComponentInputs): ComponentState {
  return {
    argv: [
      i.bins.kwok, `--kubeconfig=${i.kubeconfig}`, '-c', i.bins.stages,
      '--manage-all-nodes=false', `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      '--node-ip=127.0.0.1', '--cidr=10.0.0.0/24', '--node-lease-duration-seconds=40',
    ], // prettier-ignore
    logFile: join(i.dir, 'kwok.log'),
  };
}

/** The component's recorded command line and health endpoint (no process yet). */
export function componentSpec(name: ComponentName, i: ComponentInputs): ComponentState {
  switch (name) {
    case 'etcd':
      return etcd(i);
    case 'apiserver':
      return apiserver(i);
    case 'controller-manager':
      return controllerManager(i);
    case 'scheduler':
      return scheduler(i);
    case 'kwok':
      return kwok(i);
  }
}

/** The name of the rig's fake node. */
export const FAKE_NODE = 'kwok-node-0';

/** The fake node kwok keeps Ready (enough room for every test's pods). */
export function fakeNode(name: string): Record<string, unknown> {
  const room = { cpu: '32', memory: '256Gi', pods: '250' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', type: 'kwok' },
    },
    spec: {},
    status: { allocatable: room, capacity: room },
  };
}
