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
      name: 'unavailable: its own message is quoted',
      input: deployment({ observedGeneration: 2, availableReplicas: 0, conditions: [unavailable] }),
      want: { status: 'False', reason: 'DeploymentUnavailable', message: unavailable.message },
    },
    {
      name: 'no status yet',
      input: deployment({}, 1),
      want: { status: 'False', reason: 'RolloutPending' },
    },
  ])('$name', ({ input, want }) => expect(deploymentAvailability(input)).toMatchObject(want));
});
