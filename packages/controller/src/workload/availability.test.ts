import type { KubeObject } from '@oooi/kube';
import { deploymentAvailability } from './availability';

const deployment = (status: Record<string, unknown>, generation = 2): KubeObject => ({
  metadata: { name: 'vlan100-dns', generation },
  spec: { replicas: 1 },
  status,
});
const available = { type: 'Available', status: 'True', message: 'Deployment has minimum availability.' };
const unavailable = {
  type: 'Available',
  status: 'False',
  message: 'Deployment does not have minimum availability.',
};

describe('deploymentAvailability', () => {
  test.each([
    {
      name: 'available for the current generation',
      input: deployment({ observedGeneration: 2, availableReplicas: 1, conditions: [available] }),
      want: { status: 'True', reason: 'DeploymentAvailable', message: '1/1 replicas available' },
    },
    {
      name: 'no Deployment',
      input: undefined,
      want: { status: 'False', reason: 'DeploymentMissing' },
    },
    {
      name: 'the controller has not seen the new spec',
      input: deployment({ observedGeneration: 1, availableReplicas: 1, conditions: [available] }),
      want: {
        status: 'False',
        reason: 'RolloutPending',
        message: 'the Deployment controller has observed generation 1 of 2',
      },
    },
    {
      name: 'unavailable: the replicas counted',
      input: deployment({ observedGeneration: 2, availableReplicas: 0, conditions: [unavailable] }),
      want: { status: 'False', reason: 'DeploymentUnavailable', message: '0/1 replicas available' },
    },
    {
      name: 'a failed rollout: Progressing quoted',
      input: deployment({
        observedGeneration: 2,
        availableReplicas: 0,
        conditions: [
          unavailable,
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'ReplicaSet "vlan100-dns-7c9" has timed out progressing.',
          },
        ],
      }),
      want: {
        status: 'False',
        reason: 'DeploymentUnavailable',
        message:
          '0/1 replicas available; ProgressDeadlineExceeded: ReplicaSet "vlan100-dns-7c9" has timed out progressing.',
      },
    },
    {
      name: 'a new Deployment its controller has not seen',
      input: deployment({}, 1),
      want: { status: 'False', reason: 'DeploymentUnavailable', message: '0/1 replicas available' },
    },
  ])('$name', ({ input, want }) => expect(deploymentAvailability(input)).toMatchObject(want));

  test('a new Deployment reads the same before and after its controller first reports it unavailable', () => {
    const fresh = deploymentAvailability(deployment({}, 1));
    const seen = deploymentAvailability(
      deployment({ observedGeneration: 1, availableReplicas: 0, conditions: [unavailable] }, 1),
    );
    expect(seen).toEqual(fresh);
  });
});
