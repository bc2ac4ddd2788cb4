// The kubelet stand-in's readiness decisions (kubelet-readiness.ts): the probe commands, which Deployment and
// template an API Pod belongs to, the status written.
import {
  deploymentOf,
  probeArgv,
  probedContainers,
  statusPatch,
  templateKey,
  type ContainerSpec,
  type PodLike,
} from './kubelet-readiness';

const coredns: ContainerSpec = {
  name: 'coredns',
  ports: [{ name: 'ready', containerPort: 8181 }],
  readinessProbe: { httpGet: { path: '/ready', port: 'ready', scheme: 'HTTP' }, timeoutSeconds: 3 },
};

it.each<[string, ContainerSpec, readonly string[] | undefined]>([
  [
    'httpGet on a named port, against the pod IP',
    coredns,
    ['curl', '-sk', '-o', '/dev/null', '--max-time', '3', '--fail', 'http://203.0.113.100:8181/ready'],
  ],
  [
    'tcpSocket on a number',
    { name: 'x', readinessProbe: { tcpSocket: { port: 647 } } },
    ['timeout', '1', 'bash', '-c', ': </dev/tcp/203.0.113.100/647'],
  ],
  [
    'exec in the container',
    { name: 'x', readinessProbe: { exec: { command: ['cat', '/tmp/ready'] } } },
    ['podman', 'exec', 'c1', 'cat', '/tmp/ready'],
  ],
  ['no probe: ready once running', { name: 'x' }, undefined],
])('%s', (_what, c, want) => {
  expect(probeArgv(c, '203.0.113.100', ['podman', 'exec', 'c1'])).toEqual(want);
});

it('a named port the container lacks is an error naming it', () => {
  expect(() => probeArgv({ ...coredns, ports: [] }, '203.0.113.100', [])).toThrow(
    'readinessProbe of coredns: no port named ready',
  );
});

it('probes the app containers and the native sidecars, not plain init containers', () => {
  const spec = {
    initContainers: [{ name: 'init' }, { name: 'config-sync', restartPolicy: 'Always' }],
    containers: [coredns],
  };
  expect(probedContainers(spec).map((c) => c.name)).toEqual(['config-sync', 'coredns']);
});

const pod = (more: Partial<PodLike> = {}): PodLike => ({
  metadata: {
    name: 'vlan100-dns-1-5d9c7-abcde',
    labels: { 'pod-template-hash': '5d9c7' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'vlan100-dns-1-5d9c7', uid: 'u' }],
    annotations: { 'oooi.io/config-hash': 'h1' },
  },
  spec: { containers: [{ name: 'coredns', image: 'coredns:1.14.7' }] },
  ...more,
});

it('the Deployment of a Pod is its ReplicaSet without the template hash', () => {
  expect(deploymentOf(pod())).toBe('vlan100-dns-1');
  expect(deploymentOf(pod({ metadata: { name: 'bare' } }))).toBeUndefined();
});

it('the template key: same for a template and its pod, another for another image or annotation', () => {
  const template = {
    metadata: { annotations: { 'oooi.io/config-hash': 'h1' } },
    spec: { containers: [{ name: 'coredns', image: 'coredns:1.14.7' }] },
  };
  expect(templateKey(template)).toBe(templateKey(pod()));
  expect(
    templateKey({ ...template, spec: { containers: [{ name: 'coredns', image: 'coredns:1.14.8' }] } }),
  ).not.toBe(templateKey(pod()));
  expect(templateKey({ ...template, metadata: { annotations: { 'oooi.io/config-hash': 'h2' } } })).not.toBe(
    templateKey(pod()),
  );
});

const T = '2026-12-06T06:00:00.000Z';
const ready = (p: object | undefined) =>
  (p as { status: { conditions: { type: string; status: string }[] } } | undefined)?.status.conditions.find(
    (c) => c.type === 'Ready',
  )?.status;

it.each<[string, PodLike['status'], string | undefined, boolean, string | undefined]>([
  ['a new pod whose process runs, probe not passed yet', undefined, '203.0.113.9', false, 'False'],
  ['probe passed', { phase: 'Running', podIP: '203.0.113.9' }, '203.0.113.9', true, 'True'],
  [
    'already so: no patch',
    { phase: 'Running', podIP: '203.0.113.9', conditions: [{ type: 'Ready', status: 'True' }] },
    '203.0.113.9',
    true,
    undefined,
  ],
  [
    'its process gone: Pending, not Ready',
    { phase: 'Running', podIP: '203.0.113.9', conditions: [{ type: 'Ready', status: 'True' }] },
    undefined,
    false,
    'False',
  ],
])('status: %s', (...[, status, ip, isReady, want]) => {
  const p = statusPatch(pod(status ? { status } : {}), ip, isReady, T);
  expect(ready(p)).toBe(want);
  if (p !== undefined)
    expect((p as { status: { phase: string } }).status.phase).toBe(ip === undefined ? 'Pending' : 'Running');
});
