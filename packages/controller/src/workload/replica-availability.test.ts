import type { KubeObject } from '@oooi/kube';
import { deploymentAvailability } from './availability';
import { replicaAvailability, type ReplicaView } from './replica-availability';

const up: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'x', generation: 1 },
  spec: { replicas: 1 },
  status: {
    observedGeneration: 1,
    availableReplicas: 1,
    conditions: [{ type: 'Available', status: 'True' }],
  },
};
const pending: KubeObject = {
  ...up,
  status: {
    observedGeneration: 1,
    availableReplicas: 0,
    conditions: [
      { type: 'Available', status: 'False', message: 'Deployment does not have minimum availability.' },
    ],
  },
};
const view = (i: number, live: KubeObject | undefined): ReplicaView => ({
  address: `198.51.100.${3 + i}`,
  deployment: i === 0 ? 'dns' : `dns-${i}`,
  live,
});

describe('replicaAvailability', () => {
  test.each([
    {
      name: 'two, both available',
      lives: [up, up],
      want: {
        status: 'True',
        reason: 'ReplicasAvailable',
        message: '2/2 replicas available: 198.51.100.3 (dns), 198.51.100.4 (dns-1)',
      },
      available: 2,
    },
    {
      name: 'two, the second Pending (one node): degraded, naming its address',
      lives: [up, pending],
      want: {
        status: 'False',
        reason: 'ReplicasDegraded',
        message:
          '1/2 replicas available; not available: 198.51.100.4 (Deployment dns-1: DeploymentUnavailable: 0/1 replicas available)',
      },
      available: 1,
    },
    {
      name: 'three, the second not created yet and the third down',
      lives: [up, undefined, pending],
      want: {
        status: 'False',
        reason: 'ReplicasDegraded',
        message:
          '1/3 replicas available; not available: 198.51.100.4 (Deployment dns-1: DeploymentMissing: no Deployment yet); 198.51.100.5 (Deployment dns-2: DeploymentUnavailable: 0/1 replicas available)',
      },
      available: 1,
    },
    {
      name: 'two, none available',
      lives: [pending, pending],
      want: { status: 'False', reason: 'NoReplicaAvailable' },
      available: 0,
    },
  ])('$name', ({ lives, want, available }) => {
    const got = replicaAvailability(lives.map((l, i) => view(i, l)));
    expect(got.verdict).toMatchObject(want);
    expect(got.counts).toEqual({ total: lives.length, available });
  });

  test('one replica: the one-Deployment verdict of before, unchanged', () => {
    for (const live of [up, pending, undefined]) {
      expect(replicaAvailability([view(0, live)]).verdict).toEqual(deploymentAvailability(live));
    }
  });
});
