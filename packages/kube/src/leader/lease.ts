// The coordination.k8s.io/v1 Lease: its kind descriptor and the part of its shape the elector reads and writes.
import type { KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';

export const LeaseKind: Readonly<KindDescriptor> = Object.freeze({
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
});

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export type Lease = KubeObject & { spec?: LeaseSpec };
