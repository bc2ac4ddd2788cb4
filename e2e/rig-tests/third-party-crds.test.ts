// The third-party test CRDs behave like the real ones where it matters to oooi: the kinds oooi writes in a
// hosted cluster (MetalLB IPAddressPool, L2Advertisement and MetalLB, the OLM Subscription) have structural specs,
// so a misspelt field is rejected instead of stored; the kinds it only reads keep the fields it reads.
import * as k8s from '@kubernetes/client-node';
import { e2eEnv, e2eKubeConfig, rigBin, run } from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

const kc = e2eKubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const ns = 'rig-third-party';

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
});
afterAll(async () => {
  await core.deleteNamespace({ name: ns });
});

/** What oooi-dhcp reads of a VMI spec (and of a VM's template). */
const vmiSpec = {
  hostname: 'web-1',
  domain: {
    devices: { interfaces: [{ name: 'vlan', bridge: {}, macAddress: '02:00:00:00:00:01' }] },
  },
  networks: [{ name: 'vlan', multus: { networkName: 'vlan/vlan-net' } }],
};

type Obj = Record<string, unknown> & {
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
};

const pool = (name: string, spec: Record<string, unknown>): Obj => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  metadata: { name, namespace: ns },
  spec,
});
const l2 = (name: string, spec: Record<string, unknown>): Obj => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'L2Advertisement',
  metadata: { name, namespace: ns },
  spec,
});
const metallb = (name: string, spec: Record<string, unknown>): Obj => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'MetalLB',
  metadata: { name, namespace: ns },
  spec,
});
const subscription = (name: string, spec: Record<string, unknown>): Obj => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name, namespace: ns },
  spec: {
    name: 'metallb-operator',
    source: 'redhat-operators',
    sourceNamespace: 'openshift-marketplace',
    ...spec,
  },
});

/** kubectl with the run's kubeconfig, the object as stdin. */
async function kubectl(args: readonly string[], obj: Obj): Promise<{ code: number | null; out: string }> {
  const res = await run([await rigBin('kubectl'), '--kubeconfig', e2eEnv().kubeconfig, ...args, '-f', '-'], {
    input: JSON.stringify(obj),
  });
  return { code: res.code, out: `${res.stdout}${res.stderr}` };
}

// how oooi writes (server-side apply), and a strict create: both must refuse a field the schema lacks
const applyStrict = ['apply', '--server-side', '--field-manager=oooi-rig-test', '--validate=strict'];
const createStrict = ['create', '--validate=strict'];

interface WriteCase {
  readonly name: string;
  readonly obj: Obj;
  /** A field the stored object must carry (path, value), for accepted rows. */
  readonly want?: readonly [readonly string[], unknown];
  /** The misspelt field the server must name, for rejected rows. */
  readonly wantError?: string;
}

function at(obj: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

describe('kinds oooi writes: structural specs', () => {
  test.each<WriteCase>([
    {
      name: 'IPAddressPool with addresses, autoAssign, avoidBuggyIPs',
      obj: pool('ok', {
        addresses: ['198.51.100.200-198.51.100.209'],
        autoAssign: false,
        avoidBuggyIPs: true,
      }),
      want: [['spec', 'autoAssign'], false],
    },
    {
      name: 'IPAddressPool defaults autoAssign to true, as upstream',
      obj: pool('defaults', { addresses: ['198.51.100.192/28'] }),
      want: [['spec', 'autoAssign'], true],
    },
    {
      name: 'L2Advertisement with pools, interfaces, node selectors',
      obj: l2('ok', {
        ipAddressPools: ['ok'],
        interfaces: ['net1'],
        nodeSelectors: [{ matchLabels: { 'kubernetes.io/hostname': 'worker-0' } }],
      }),
      want: [['spec', 'interfaces'], ['net1']],
    },
    {
      name: 'MetalLB with nodeSelector and logLevel',
      obj: metallb('ok', { nodeSelector: { 'node-role.kubernetes.io/worker': '' }, logLevel: 'info' }),
      want: [['spec', 'logLevel'], 'info'],
    },
    {
      name: 'Subscription with channel, approval, startingCSV, config',
      obj: subscription('ok', {
        channel: 'stable',
        installPlanApproval: 'Automatic',
        startingCSV: 'metallb-operator.v4.18.0',
        config: { nodeSelector: { 'node-role.kubernetes.io/infra': '' } },
      }),
      want: [['spec', 'channel'], 'stable'],
    },
    {
      name: 'IPAddressPool spec.autoAsign',
      obj: pool('bad', { addresses: [], autoAsign: true }),
      wantError: 'autoAsign',
    },
    {
      name: 'L2Advertisement spec.ipAdressPools',
      obj: l2('bad', { ipAdressPools: ['x'] }),
      wantError: 'ipAdressPools',
    },
    {
      name: 'L2Advertisement nodeSelectors[0].matchLabel',
      obj: l2('bad-nested', { nodeSelectors: [{ matchLabel: { a: 'b' } }] }),
      wantError: 'matchLabel',
    },
    { name: 'MetalLB spec.loglevel', obj: metallb('bad', { loglevel: 'debug' }), wantError: 'loglevel' },
    { name: 'Subscription spec.chanel', obj: subscription('bad', { chanel: 'stable' }), wantError: 'chanel' },
    {
      name: 'Subscription spec.config.nodeSelecter',
      obj: subscription('bad-nested', { config: { nodeSelecter: { a: 'b' } } }),
      wantError: 'nodeSelecter',
    },
  ])('$name', async ({ obj, want, wantError }) => {
    if (wantError !== undefined) {
      for (const args of [applyStrict, createStrict]) {
        const res = await kubectl(args, obj);
        expect(res.code).not.toBe(0);
        expect(res.out).toMatch(/unknown field|field not declared in schema/);
        expect(res.out).toContain(wantError);
      }
      return;
    }
    const res = await kubectl(applyStrict, obj);
    expect(res).toMatchObject({ code: 0 });
    const [group = '', version = ''] = String(obj.apiVersion).split('/');
    const plural = `${String(obj.kind).toLowerCase()}s`; // ipaddresspools, l2advertisements, metallbs, subscriptions
    const got = await custom.getNamespacedCustomObject({
      group,
      version,
      namespace: ns,
      plural,
      name: obj.metadata.name,
    });
    expect(at(got, want![0])).toEqual(want![1]);
  });
});

interface ReadCase {
  readonly name: string;
  readonly resource: { readonly group: string; readonly version: string; readonly plural: string };
  readonly obj: Obj;
  readonly status?: Record<string, unknown>;
  /** Each field oooi reads (path) and the value it must have after the round trip. */
  readonly want: readonly (readonly [readonly string[], unknown])[];
}

describe('kinds oooi reads: the fields it reads survive', () => {
  test.each<ReadCase>([
    {
      name: 'NodePool spec.clusterName',
      resource: { group: 'hypershift.openshift.io', version: 'v1beta1', plural: 'nodepools' },
      obj: {
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'NodePool',
        metadata: { name: 'np1' },
        spec: { clusterName: 'c1', platform: { type: 'KubeVirt' } },
      },
      want: [
        [['spec', 'clusterName'], 'c1'],
        [['spec', 'platform', 'type'], 'KubeVirt'],
      ],
    },
    {
      name: 'Machine annotations and status.addresses',
      resource: { group: 'cluster.x-k8s.io', version: 'v1beta1', plural: 'machines' },
      obj: {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Machine',
        metadata: { name: 'm1', annotations: { 'hypershift.openshift.io/nodePool': `${ns}/np1` } },
        spec: { clusterName: 'c1' },
      },
      status: { addresses: [{ type: 'InternalIP', address: '198.51.100.120' }] },
      want: [
        [['metadata', 'annotations'], { 'hypershift.openshift.io/nodePool': `${ns}/np1` }],
        [['status', 'addresses'], [{ type: 'InternalIP', address: '198.51.100.120' }]],
      ],
    },
    {
      name: 'VirtualMachineInstance spec.networks, interfaces, hostname and status.interfaces',
      resource: { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances' },
      obj: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachineInstance',
        metadata: { name: 'vm1' },
        spec: vmiSpec,
      },
      status: {
        interfaces: [
          {
            name: 'vlan',
            mac: '02:00:00:00:00:01',
            ipAddress: '198.51.100.20',
            ipAddresses: ['198.51.100.20'],
          },
        ],
      },
      want: [
        [
          ['status', 'interfaces'],
          [
            {
              name: 'vlan',
              mac: '02:00:00:00:00:01',
              ipAddress: '198.51.100.20',
              ipAddresses: ['198.51.100.20'],
            },
          ],
        ],
        [['spec', 'hostname'], 'web-1'],
        [['spec', 'networks'], vmiSpec.networks],
        [['spec', 'domain', 'devices', 'interfaces'], vmiSpec.domain.devices.interfaces],
      ],
    },
    {
      name: 'VirtualMachine spec.template.spec networks and interfaces',
      resource: { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines' },
      obj: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: { name: 'vm1' },
        spec: { runStrategy: 'Always', template: { spec: vmiSpec } },
      },
      want: [
        [['spec', 'template', 'spec', 'networks'], vmiSpec.networks],
        [['spec', 'template', 'spec', 'domain', 'devices', 'interfaces'], vmiSpec.domain.devices.interfaces],
      ],
    },
    {
      name: 'HostedCluster status.kubeconfig.name',
      resource: { group: 'hypershift.openshift.io', version: 'v1beta1', plural: 'hostedclusters' },
      obj: {
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'HostedCluster',
        metadata: { name: 'hc1' },
        spec: {},
      },
      status: { kubeconfig: { name: 'hc1-admin-kubeconfig' } },
      want: [[['status', 'kubeconfig', 'name'], 'hc1-admin-kubeconfig']],
    },
  ])('$name', async ({ resource, obj, status, want }) => {
    const r = { ...resource, namespace: ns };
    await custom.createNamespacedCustomObject({ ...r, body: obj });
    if (status !== undefined) {
      await custom.patchNamespacedCustomObjectStatus(
        { ...r, name: obj.metadata.name, body: { status } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
    }
    const got = await custom.getNamespacedCustomObject({ ...r, name: obj.metadata.name });
    for (const [path, value] of want) expect(at(got, path)).toEqual(value);
  });
});
