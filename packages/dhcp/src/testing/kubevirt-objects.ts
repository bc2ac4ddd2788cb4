// Builders of VirtualMachineInstance and VirtualMachine objects as KubeVirt writes them (the fields oooi-dhcp
// reads), for unit tests and the e2e test.
export interface VmiSpec {
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  /** creationTimestamp; default 2026-01-01T00:00:00Z. */
  readonly created?: string;
  /** multus.networkName of the attached network; default `vlan/vlan-net`. */
  readonly network?: string;
  readonly specMac?: string;
  /** status.interfaces[] entry; omitted when neither mac nor ips is given. */
  readonly mac?: string;
  readonly ips?: readonly string[];
  readonly hostname?: string;
  /** uid of the controlling VirtualMachine (named like the VMI). */
  readonly ownerUid?: string;
}

export function vmiObject(s: VmiSpec) {
  const ns = s.namespace ?? 'vms';
  const [first, ...rest] = s.ips ?? [];
  const status =
    s.mac !== undefined || s.ips !== undefined
      ? {
          interfaces: [
            {
              name: 'vlan',
              interfaceName: 'eth1',
              ...(s.mac !== undefined ? { mac: s.mac } : {}),
              ...(first !== undefined ? { ipAddress: first, ipAddresses: [first, ...rest] } : {}),
            },
            { name: 'default', mac: '02:99:99:99:99:99', ipAddress: '10.128.0.7' },
          ],
        }
      : {};
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: {
      namespace: ns,
      name: s.name,
      uid: s.uid ?? `uid-${ns}-${s.name}`,
      creationTimestamp: s.created ?? '2026-01-01T00:00:00Z',
      ...(s.ownerUid !== undefined
        ? {
            ownerReferences: [
              {
                apiVersion: 'kubevirt.io/v1',
                kind: 'VirtualMachine',
                name: s.name,
                uid: s.ownerUid,
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      ...(s.hostname !== undefined ? { hostname: s.hostname } : {}),
      domain: {
        devices: {
          interfaces: [
            { name: 'default', masquerade: {} },
            { name: 'vlan', bridge: {}, ...(s.specMac !== undefined ? { macAddress: s.specMac } : {}) },
          ],
        },
      },
      networks: [
        { name: 'default', pod: {} },
        { name: 'vlan', multus: { networkName: s.network ?? 'vlan/vlan-net' } },
      ],
    },
    status,
  };
}

export function vmObject(s: {
  namespace?: string;
  name: string;
  uid: string;
  mac?: string;
  network?: string;
}) {
  const vmi = vmiObject({
    name: s.name,
    ...(s.mac !== undefined ? { specMac: s.mac } : {}),
    ...(s.network !== undefined ? { network: s.network } : {}),
  });
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { namespace: s.namespace ?? 'vms', name: s.name, uid: s.uid },
    spec: { runStrategy: 'Always', template: { spec: vmi.spec } },
  };
}
