// The pod runner's podman runtime, pure: a container spec and its pod's securityContext become `podman run`
// options as the kubelet would apply them, and what cannot be applied faithfully is refused, naming the field.
import { podmanRunArgv, type PodmanContainer } from '@oooi/rig';

const base: PodmanContainer = {
  name: 'pod-x-app',
  image: 'localhost/oooi-dhcp:0.1.0',
  imageUser: '65532:65532',
  netnsPath: '/run/netns/oooi-x',
  hostname: 'x-rig',
  args: ['--config', '/config/config.json'],
  env: [['POD_NAME', 'x-rig']],
  mounts: [
    { source: '/tmp/s/config', target: '/config', readOnly: true },
    { source: '/tmp/s/leases', target: '/leases', readOnly: false },
  ],
  pod: {
    runAsUser: 65532,
    runAsGroup: 65532,
    runAsNonRoot: true,
    fsGroup: 65532,
    sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '67' }],
    seccompProfile: { type: 'RuntimeDefault' },
  },
  container: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
    readOnlyRootFilesystem: true,
  },
  where: 'spec.template.spec.containers[0]',
};

test('a restricted non-root pod: user, fsGroup, sysctl, every capability dropped, read-only root, its namespace', () => {
  expect(podmanRunArgv(base)).toEqual([
    'run',
    '--rm',
    '--pull=never',
    '--name',
    'pod-x-app',
    '--hostname',
    'x-rig',
    '--runtime',
    'runc',
    '--ulimit',
    'nofile=1024:1024',
    '--ulimit',
    'nproc=1024:1024',
    '--network',
    'ns:/run/netns/oooi-x',
    '--user',
    '65532:65532',
    '--group-add',
    '65532',
    '--sysctl',
    'net.ipv4.ip_unprivileged_port_start=67',
    '--cap-drop',
    'ALL',
    // no --cap-add: a non-root process of a pod gets no added capability (bounding set only)
    '--security-opt',
    'no-new-privileges',
    '--read-only',
    '--read-only-tmpfs=false',
    '--env',
    'POD_NAME=x-rig',
    '--volume',
    '/tmp/s/config:/config:ro',
    '--volume',
    '/tmp/s/leases:/leases',
    'localhost/oooi-dhcp:0.1.0',
    '--config',
    '/config/config.json',
  ]);
});

test('command replaces the ENTRYPOINT; a root container keeps its added capabilities', () => {
  const argv = podmanRunArgv({
    ...base,
    command: ['/usr/local/bin/node', '/app/x.js'],
    pod: {},
    container: { capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } },
    imageUser: '0',
  });
  expect(argv).toEqual(expect.arrayContaining(['--entrypoint', '["/usr/local/bin/node","/app/x.js"]']));
  expect(argv.join(' ')).toContain('--cap-drop ALL --cap-add NET_ADMIN');
});

test.each([
  {
    what: 'runAsNonRoot with an image running as root (and no runAsUser)',
    c: { ...base, imageUser: 'root', pod: { runAsNonRoot: true } },
    err: 'runAsNonRoot and the image\'s user "root" is not a numeric non-root user',
  },
  {
    what: 'a privileged container',
    c: { ...base, container: { privileged: true } },
    err: 'spec.template.spec.containers[0].securityContext.privileged: not supported',
  },
  {
    what: 'a field it does not know',
    c: { ...base, pod: { windowsOptions: {} } as PodmanContainer['pod'] },
    err: 'spec.template.spec.securityContext.windowsOptions: not supported',
  },
  {
    what: 'a Localhost seccomp profile',
    c: { ...base, pod: { seccompProfile: { type: 'Localhost', localhostProfile: 'x.json' } } },
    err: 'seccompProfile.type Localhost: not supported',
  },
])('refused: $what', ({ c, err }) => {
  expect(() => podmanRunArgv(c)).toThrow(err);
});
