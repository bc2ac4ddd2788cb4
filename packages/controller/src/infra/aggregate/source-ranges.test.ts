import { resolveSourceRanges } from './source-ranges';
import type { SourceRanges } from './source-ranges';
import { targetOf } from './attachments';
import { attachment, machine, nodePool, shuffled, terminating } from '../../testing/fixtures';

const target = targetOf(attachment('alpha'));
const cp = 'clusters-alpha';
const pool = 'clusters/alpha-workers';
const kubevirt = nodePool('alpha-workers', 'alpha');

interface Case {
  name: string;
  nodePools: unknown[];
  machines: unknown[];
  cidr?: string;
  want: SourceRanges;
}

const many = Array.from({ length: 300 }, (_, i) =>
  machine(`m${i}`, cp, pool, [`10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`]),
);

describe('resolveSourceRanges', () => {
  test.each<Case>([
    {
      name: 'in-CIDR addresses, de-duplicated, sorted by address, as /32s',
      nodePools: [kubevirt],
      machines: [
        machine('m1', cp, pool, ['198.51.100.20', ' 198.51.100.9 ']),
        machine('m2', cp, pool, ['198.51.100.20', '10.0.0.5', 'fd00::1', 'not-an-ip']),
      ],
      want: {
        state: 'known',
        nodePools: [pool],
        ranges: ['198.51.100.9/32', '198.51.100.20/32'],
        dropped: 0,
      },
    },
    {
      name: 'Machines of other NodePools, other namespaces, without the annotation, or terminating are ignored',
      nodePools: [kubevirt, nodePool('other', 'alpha', 'Agent')],
      machines: [
        machine('a', cp, pool, ['198.51.100.10']),
        machine('b', cp, 'clusters/other', ['198.51.100.11']),
        machine('c', 'clusters-bravo', pool, ['198.51.100.12']),
        machine('d', cp, undefined, ['198.51.100.13']),
        terminating(machine('e', cp, pool, ['198.51.100.14'])),
      ],
      want: { state: 'known', nodePools: [pool], ranges: ['198.51.100.10/32'], dropped: 0 },
    },
    {
      name: 'capped at 256, the rest counted',
      nodePools: [kubevirt],
      machines: many,
      cidr: '10.0.0.0/16',
      want: {
        state: 'known',
        nodePools: [pool],
        ranges: [
          ...Array.from({ length: 250 }, (_, i) => `10.0.0.${i + 1}/32`),
          ...Array.from({ length: 6 }, (_, i) => `10.0.1.${i + 1}/32`),
        ],
        dropped: 44,
      },
    },
    {
      name: 'KubeVirt NodePool without a usable address is pending',
      nodePools: [kubevirt],
      machines: [machine('m1', cp, pool, ['10.0.0.5']), machine('m2', cp, pool, [])],
      want: { state: 'pending', nodePools: [pool] },
    },
    {
      name: 'KubeVirt NodePool without Machines is pending',
      nodePools: [kubevirt],
      machines: [],
      want: { state: 'pending', nodePools: [pool] },
    },
    {
      name: 'no NodePool: none',
      nodePools: [],
      machines: [machine('m', cp, pool, ['198.51.100.9'])],
      want: { state: 'none' },
    },
    {
      name: 'a non-KubeVirt NodePool: none',
      nodePools: [nodePool('alpha-workers', 'alpha', 'Agent')],
      machines: [machine('m', cp, pool, ['198.51.100.9'])],
      want: { state: 'none' },
    },
    {
      name: "another cluster's NodePool: none",
      nodePools: [
        nodePool('alpha-workers', 'bravo'),
        nodePool('alpha-workers', 'alpha', 'KubeVirt', 'elsewhere'),
      ],
      machines: [machine('m', cp, pool, ['198.51.100.9'])],
      want: { state: 'none' },
    },
  ])('$name', ({ nodePools, machines, cidr, want }) => {
    const input = { cidr: cidr ?? '198.51.100.0/24', target, nodePools, machines };
    expect(resolveSourceRanges(input)).toEqual(want);
    expect(resolveSourceRanges({ ...input, machines: shuffled(machines) })).toEqual(want);
  });
});
