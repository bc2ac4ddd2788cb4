// The pod runner's reading of spec.shareProcessNamespace, pure: a pod that shares one process namespace gives each
// podman container this machine's (`--pid host`, where the pod's process containers live too), one that does not
// keeps podman's own per container.
import { planPod } from './plan';
import { podmanRunArgv, type PodmanContainer } from './podman';

const deployment = (share?: boolean) => ({
  metadata: { name: 'dns', namespace: 'clusters' },
  spec: {
    template: {
      spec: {
        ...(share !== undefined ? { shareProcessNamespace: share } : {}),
        containers: [{ name: 'coredns', image: 'localhost/oooi-rig-coredns:v1.14.7' }],
      },
    },
  },
});

const container = (sharePid: boolean): PodmanContainer => ({
  name: 'pod-dns-coredns',
  image: 'localhost/oooi-rig-coredns:v1.14.7',
  imageUser: '65532:65532',
  netnsPath: '/run/netns/oooi-x',
  hostname: 'dns-rig',
  args: [],
  env: [],
  mounts: [],
  pod: {},
  container: {},
  where: 'spec.template.spec.containers[0]',
  sharePid,
});

test.each([
  { share: true, want: true },
  { share: false, want: false },
  { share: undefined, want: false },
])('shareProcessNamespace $share: the plan says $want', ({ share, want }) => {
  expect(planPod(deployment(share), [], { podIP: '203.0.113.10', nodeName: 'n' }).shareProcessNamespace).toBe(
    want,
  );
});

test('a shared process namespace is this machine’s (--pid host), after the network namespace', () => {
  const argv = podmanRunArgv(container(true));
  expect(argv.slice(argv.indexOf('--network'), argv.indexOf('--network') + 4)).toEqual([
    '--network',
    'ns:/run/netns/oooi-x',
    '--pid',
    'host',
  ]);
  expect(podmanRunArgv(container(false))).not.toContain('--pid');
});
