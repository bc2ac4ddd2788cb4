import { servingCondition } from './serving-condition';
import type { ServingFacts } from './serving-condition';

const kubevirt = {
  namespaces: ['vms-a', 'vms-b'],
  synced: true,
  unknownClients: 'refuse' as const,
  conflicts: [],
};

test.each<{ name: string; facts: ServingFacts; want: [string, string]; message: string }>([
  {
    name: 'plain server',
    facts: { listening: true, cidr: '198.51.100.0/24' },
    want: ['True', 'Serving'],
    message: 'serving 198.51.100.0/24',
  },
  {
    name: 'KubeVirt mode, synced',
    facts: { listening: true, cidr: '198.51.100.0/24', kubevirt },
    want: ['True', 'Serving'],
    message: 'to the VMIs of namespaces vms-a, vms-b (clients without a VMI: refuse)',
  },
  {
    name: 'KubeVirt mode, caches not listed yet',
    facts: { listening: true, cidr: '198.51.100.0/24', kubevirt: { ...kubevirt, synced: false } },
    want: ['False', 'WaitingForVirtualMachineInstances'],
    message: 'of namespaces vms-a, vms-b are not listed yet',
  },
  {
    name: 'conflicts are named, sorted, capped',
    facts: {
      listening: true,
      cidr: '198.51.100.0/24',
      kubevirt: {
        ...kubevirt,
        conflicts: [
          { reason: 'duplicate_ip', objects: ['vms-a/old', 'vms-a/young'], mac: 'm', ip: '198.51.100.7' },
          ...Array.from({ length: 6 }, (_, i) => ({
            reason: 'excluded' as const,
            objects: [`vms-b/x${i}`],
            mac: 'm',
            ip: '198.51.100.2',
          })),
        ],
      },
    },
    want: ['True', 'VmiConflicts'],
    message:
      '7 VMI conflict(s): vms-a/young reports 198.51.100.7 which vms-a/old holds; vms-b/x0 reports 198.51.100.2, an excluded address',
  },
  {
    name: 'sockets not bound',
    facts: { listening: false, cidr: '198.51.100.0/24', kubevirt },
    want: ['False', 'NotListening'],
    message: 'not bound',
  },
])('$name', ({ facts, want, message }) => {
  const c = servingCondition(facts);
  expect([c.type, c.status, c.reason]).toEqual(['Serving', ...want]);
  expect(c.message).toContain(message);
});

test('the conflict list says how many were left out', () => {
  const c = servingCondition({
    listening: true,
    cidr: '198.51.100.0/24',
    kubevirt: {
      ...kubevirt,
      conflicts: Array.from({ length: 7 }, (_, i) => ({
        reason: 'outside_network' as const,
        objects: [`vms-a/v${i}`],
        mac: 'm',
        ip: '203.0.113.1',
      })),
    },
  });
  expect(c.message).toMatch(/vms-a\/v4 reports 203\.0\.113\.1, outside the network; and 2 more$/);
});
