// The Infra's DHCP lease storage on the rig's real apiserver, with the controller wired as in production: an Infra
// whose spec.infraComponents.dhcp.leaseStorage names a storage class gets a DHCPServer child carrying that field,
// and the child a ReadWriteOnce PersistentVolumeClaim that its Deployment mounts as the lease volume; an Infra
// without the field (the default) gets a child without it, an emptyDir and no claim. Removing the field from the
// Infra goes back to the emptyDir. No storage provisioner runs on the rig: this proves the objects, not a volume.
import { DeploymentKind, PersistentVolumeClaimKind } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { infra } from './objects';
import { User, makeNamespaces, restForRig, startController, until, type RunningController } from './support';

jest.setTimeout(120_000);

const ns = `ctl-leases-${process.pid}`;
let user: User;
let cleanup: () => Promise<void>;
let ctl: RunningController | undefined;

const dhcp = (extra: Record<string, unknown> = {}) => ({
  serverIP: '198.51.100.2',
  rangeStart: '198.51.100.100',
  rangeEnd: '198.51.100.199',
  ...extra,
});
const durable = () => infra(ns, 'durable', { dhcp: dhcp({ leaseStorage: { storageClassName: 'fast' } }) });
// The second Infra is on the same subnet: addresses of its own, or the two collide (InfraAddressConflict) and
// its DHCPServer is withheld.
const ephemeral = () =>
  infra(ns, 'ephemeral', {
    dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' },
    dns: { serverIP: '198.51.100.13' },
    proxy: { serverIP: '198.51.100.14', internalProxyService: `ephemeral-proxy.${ns}.svc.cluster.local` },
  });

interface PodSpec {
  volumes: { name: string; emptyDir?: unknown; persistentVolumeClaim?: { claimName: string } }[];
}
const leaseVolume = (d: KubeObject | undefined) =>
  (d?.spec as { template: { spec: PodSpec } } | undefined)?.template.spec.volumes.find(
    (v) => v.name === 'leases',
  );
const deployment = (name: string) => user.client.get(DeploymentKind, { namespace: ns, name });
const claim = (name: string) => user.client.get(PersistentVolumeClaimKind, { namespace: ns, name });

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
  await user.apply('Infra', durable());
  await user.apply('Infra', ephemeral());
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('an Infra with a lease storage class: its DHCPServer has it, and the Deployment mounts a PVC', async () => {
  const child = await until(
    'the durable DHCPServer',
    () => user.get('DHCPServer', ns, 'durable-dhcp'),
    (o) => o !== undefined,
  );
  // the apiserver defaulted the size on the Infra; the child carries the field as the Infra has it
  expect((child!.spec as { leaseStorage?: unknown }).leaseStorage).toEqual({
    storageClassName: 'fast',
    size: '64Mi',
  });
  const pvc = await until(
    'the lease claim',
    () => claim('durable-dhcp-leases'),
    (o) => o !== undefined,
  );
  expect(pvc!.spec).toMatchObject({
    accessModes: ['ReadWriteOnce'],
    storageClassName: 'fast',
    resources: { requests: { storage: '64Mi' } },
  });
  expect(pvc!.metadata?.ownerReferences).toEqual([
    expect.objectContaining({ kind: 'DHCPServer', name: 'durable-dhcp', controller: true }),
  ]);
  const d = await until(
    'the durable Deployment',
    () => deployment('durable-dhcp'),
    (o) => o !== undefined,
  );
  expect(leaseVolume(d)).toEqual({
    name: 'leases',
    persistentVolumeClaim: { claimName: 'durable-dhcp-leases' },
  });
});

test('an Infra without it (the default): no field on the child, an emptyDir, no claim', async () => {
  const child = await until(
    'the ephemeral DHCPServer',
    () => user.get('DHCPServer', ns, 'ephemeral-dhcp'),
    (o) => o !== undefined,
  );
  expect((child!.spec as { leaseStorage?: unknown }).leaseStorage).toBeUndefined();
  const d = await until(
    'the ephemeral Deployment',
    () => deployment('ephemeral-dhcp'),
    (o) => o !== undefined,
  );
  expect(leaseVolume(d)).toEqual({ name: 'leases', emptyDir: {} });
  expect(await claim('ephemeral-dhcp-leases')).toBeUndefined();
});

test('the field removed from the Infra: the child and its Deployment go back to the emptyDir', async () => {
  await until(
    'the durable Deployment on its claim',
    () => deployment('durable-dhcp'),
    (o) => leaseVolume(o)?.persistentVolumeClaim !== undefined,
  );
  await user.apply('Infra', infra(ns, 'durable'));
  const d = await until(
    'the durable Deployment on an emptyDir',
    () => deployment('durable-dhcp'),
    (o) => leaseVolume(o)?.emptyDir !== undefined,
  );
  expect(leaseVolume(d)).toEqual({ name: 'leases', emptyDir: {} });
  const child = await user.get('DHCPServer', ns, 'durable-dhcp');
  expect((child!.spec as { leaseStorage?: unknown }).leaseStorage).toBeUndefined();
});
