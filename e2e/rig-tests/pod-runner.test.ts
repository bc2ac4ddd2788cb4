// The pod runner runs a hand-written CoreDNS Deployment: the image maps to the rig's CoreDNS, the ConfigMap
// volume becomes files (mount path remapped in args and in the Corefile), the pod holds its Multus static IP
// on net1 on the VLAN, and updateConfigMap() swaps the files atomically so CoreDNS picks up the change.
import { existsSync, readlinkSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import {
  dig,
  e2eEnv,
  exposePort,
  listNetns,
  netnsPrefix,
  openNetScope,
  rigBin,
  runPod,
  waitFor,
  type ConfigMapLike,
  type ImageMap,
  type NetScope,
  type Network,
  type RunningPod,
} from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'dns-test', namespace: 'oooi-system' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'dns-test' } },
    template: {
      metadata: {
        labels: { app: 'dns-test' },
        annotations: {
          'k8s.v1.cni.cncf.io/networks': JSON.stringify([
            { name: 'vlan-nad', namespace: 'oooi-system', ips: ['198.51.100.3/24'] },
          ]),
        },
      },
      spec: {
        containers: [
          {
            name: 'coredns',
            image: 'registry.k8s.io/coredns/coredns:v1.14.7',
            args: ['-conf', '/etc/coredns/Corefile'],
            env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
          },
        ],
        volumes: [{ name: 'config', configMap: { name: 'dns-test-config' } }],
      },
    },
  },
};

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { timeout: 5_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

function configMap(ip: string): ConfigMapLike {
  return {
    metadata: { name: 'dns-test-config', namespace: 'oooi-system' },
    data: {
      Corefile:
        '.:53 {\n    hosts /etc/coredns/records.hosts {\n        reload 1s\n    }\n    health 127.0.0.1:8080\n    errors\n}\n',
      'records.hosts': `${ip} api.c1.example.test\n`,
    },
  };
}

describe('pod runner', () => {
  let scope: NetScope | undefined;
  let pod: RunningPod | undefined;
  afterAll(async () => {
    await pod?.dispose();
    await scope?.dispose();
  });

  it('runs a CoreDNS Deployment on its Multus IP and follows ConfigMap updates', async () => {
    scope = openNetScope(e2eEnv().rig);
    const vlan = await scope.createNetwork({ label: 'vlan', kind: 'vlan' });
    const vm = await scope.createNamespace('vm');
    await vlan.attach(vm, { address: '198.51.100.10/24' });

    const { kubeconfig } = e2eEnv();
    pod = await runPod(scope, { deployment, configMaps: [configMap('198.51.100.80')], vlan, kubeconfig });
    const c = pod.container('coredns');
    const vol = join(pod.dir, 'volumes', 'config');
    expect(c.argv.slice(1)).toEqual(['-conf', join(vol, 'Corefile')]);
    expect(c.env.POD_NAME).toBe('dns-test-rig');
    expect(c.env.KUBECONFIG).toBe(kubeconfig);
    expect(await pod.netns.addresses('net1')).toEqual(['198.51.100.3/24']);
    expect(pod.podIP).toBe('198.51.100.3');

    const ask = () => dig(vm, { server: '198.51.100.3', name: 'api.c1.example.test', tries: 1 });
    await waitFor(
      'CoreDNS in the pod to answer',
      async () => {
        if (!c.proc.alive()) throw new Error(`coredns exited:\n${c.proc.log()}`);
        return (await ask()).answers[0] === '198.51.100.80';
      },
      { timeoutMs: 10_000, everyMs: 200 },
    );

    // the pod reaches the rig's apiserver at the kubeconfig's loopback address, through the bridge
    const kubectl = await pod.netns.exec([await rigBin('kubectl'), 'get', 'nodes', '-o', 'name'], {
      env: { ...process.env, KUBECONFIG: kubeconfig },
    });
    expect(kubectl.stdout.trim()).toBe('node/kwok-node-0');
    // and a test reaches a port on the pod's loopback (CoreDNS's health endpoint) from the root namespace
    const exposed = await exposePort(scope, pod.netns, { host: '127.0.0.1', port: 8080 });
    expect(await httpStatus(`http://127.0.0.1:${exposed.port}/health`)).toBe(200);

    const before = readlinkSync(join(vol, '..data'));
    await pod.updateConfigMap(configMap('198.51.100.81'));
    const after = readlinkSync(join(vol, '..data'));
    expect(after).not.toBe(before);
    expect(existsSync(join(vol, before))).toBe(false);
    await waitFor(
      'CoreDNS to serve the updated records',
      async () => (await ask()).answers[0] === '198.51.100.81',
      {
        timeoutMs: 10_000,
        everyMs: 200,
      },
    );
    expect(c.proc.alive()).toBe(true);
  });
});

/** A one-container pod asking for IPS on the VLAN; the container is a plain `sleep`. */
function sleeper(name: string, ips: readonly string[]): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'oooi-system' },
    spec: {
      template: {
        metadata: {
          annotations: { 'k8s.v1.cni.cncf.io/networks': JSON.stringify([{ name: 'vlan-nad', ips }]) },
        },
        spec: { containers: [{ name: 'main', image: 'example.test/sleep:1', args: ['300'] }] },
      },
    },
  };
}
const sleepImage: ImageMap = [
  {
    name: 'sleep',
    match: () => true,
    entrypoint: () => Promise.resolve(['sleep']),
    stripCommand: () => undefined,
  },
];

describe('pod runner: what a real pod has beside its Multus interface', () => {
  let scope: NetScope | undefined;
  let pod: RunningPod | undefined;
  afterAll(async () => {
    await pod?.dispose();
    await scope?.dispose();
  });

  it('eth0 on the pod network holds the default route; the given resolv.conf is its /etc/resolv.conf', async () => {
    scope = openNetScope(e2eEnv().rig);
    const vlan = await scope.createNetwork({ label: 'vlan', kind: 'vlan' });
    const podNet = await scope.createNetwork({ label: 'podnet', kind: 'pod' });
    const resolvConf =
      'nameserver 203.0.113.53\nsearch ns1.svc.cluster.local svc.cluster.local\noptions ndots:5\n';
    pod = await runPod(scope, {
      deployment,
      configMaps: [configMap('198.51.100.80')],
      vlan,
      podNetwork: { network: podNet, address: '203.0.113.20/24' },
      resolvConf,
    });
    const routes = await pod.netns.exec(['ip', '-4', 'route', 'show', 'default']);
    expect(routes.stdout.trim()).toBe('default via 203.0.113.1 dev eth0');
    const seen = await pod.netns.exec(['cat', '/etc/resolv.conf']);
    expect(seen.stdout).toBe(resolvConf);
    const etc = `/etc/netns/${pod.netns.name}`;
    expect(existsSync(etc)).toBe(true);
    await pod.dispose();
    pod = undefined;
    expect(existsSync(etc)).toBe(false);
  });
});

describe('pod runner: Multus addresses', () => {
  let scope: NetScope;
  let vlan: Network;
  beforeAll(async () => {
    scope = openNetScope(e2eEnv().rig);
    vlan = await scope.createNetwork({ label: 'ips', kind: 'vlan' });
  });
  afterAll(async () => scope.dispose());

  interface Case {
    readonly name: string;
    readonly ips: readonly string[];
    readonly want?: readonly string[];
    readonly wantError?: string;
  }
  test.each<Case>([
    {
      name: 'every IP of the attachment is on its interface',
      ips: ['198.51.100.4/24', '198.51.100.5/24'],
      want: ['198.51.100.4/24', '198.51.100.5/24'],
    },
    {
      name: 'an extra IP outside the VLAN (the uplink range) is refused',
      ips: ['198.51.100.6/24', '192.0.2.50/24'],
      wantError: 'not in network 198.51.100.0/24',
    },
    {
      name: 'an extra IP with another prefix length is refused',
      ips: ['198.51.100.7/24', '198.51.100.8/16'],
      wantError: 'same prefix length',
    },
    {
      name: 'an extra broadcast address is refused',
      ips: ['198.51.100.9/24', '198.51.100.255/24'],
      wantError: 'broadcast',
    },
  ])('$name', async ({ ips, want, wantError }) => {
    const deployment = sleeper('multus-ips', ips);
    if (wantError !== undefined) {
      const before = (await listNetns()).filter((n) => n.startsWith(netnsPrefix(e2eEnv().rig)));
      await expect(runPod(scope, { deployment, vlan, images: sleepImage })).rejects.toThrow(wantError);
      // refused before anything was configured, and the pod's namespace is gone again
      const after = (await listNetns()).filter((n) => n.startsWith(netnsPrefix(e2eEnv().rig)));
      expect(after.sort()).toEqual(before.sort());
      return;
    }
    const pod = await runPod(scope, { deployment, vlan, images: sleepImage });
    try {
      expect(await pod.netns.addresses('net1')).toEqual(want);
      expect(pod.podIP).toBe('198.51.100.4');
      expect(pod.container('main').proc.alive()).toBe(true);
    } finally {
      await pod.dispose();
    }
  });
});

describe('pod runner: paths', () => {
  let scope: NetScope | undefined;
  afterAll(async () => scope?.dispose());

  test("a mountPath rewrites the container's args, never the image's entrypoint on this machine", async () => {
    // The repository itself may live under a path a pod mounts (a clone in /tmp, an emptyDir at /tmp): the
    // entrypoint (here /usr/bin/env, under the mountPath /usr) must still run from where it is.
    scope = openNetScope(e2eEnv().rig);
    const vlan = await scope.createNetwork({ label: 'paths', kind: 'vlan' });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'paths', namespace: 'oooi-system' },
      spec: {
        template: {
          metadata: {
            annotations: {
              'k8s.v1.cni.cncf.io/networks': JSON.stringify([
                { name: 'vlan-nad', ips: ['198.51.100.10/24'] },
              ]),
            },
          },
          spec: {
            containers: [
              {
                name: 'main',
                image: 'example.test/env:1',
                args: ['DATA=/usr/data', 'sleep', '300'],
                volumeMounts: [{ name: 'usr', mountPath: '/usr' }],
              },
            ],
            volumes: [{ name: 'usr', emptyDir: {} }],
          },
        },
      },
    };
    const envImage: ImageMap = [
      {
        name: 'env',
        match: () => true,
        entrypoint: () => Promise.resolve(['/usr/bin/env']),
        stripCommand: () => undefined,
      },
    ];
    const pod = await runPod(scope, { deployment, vlan, images: envImage });
    try {
      const { argv, proc } = pod.container('main');
      expect(argv[0]).toBe('/usr/bin/env');
      expect(argv[1]).toMatch(/^DATA=\/.+\/data$/);
      expect(argv[1]).not.toBe('DATA=/usr/data');
      await waitFor('the container to be running', () => proc.alive(), { timeoutMs: 5_000 });
      expect(proc.alive()).toBe(true);
    } finally {
      await pod.dispose();
    }
  });
});
