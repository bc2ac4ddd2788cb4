import { expectGolden } from '@oooi/api/testing';
import { UnsafeTextError } from '../../workload/generated-text';
import { renderKeepalivedConf, type KeepalivedInput } from './keepalived-conf';

const input: KeepalivedInput = {
  namespace: 'clusters',
  name: 'vlan100-proxy',
  cidr: '198.51.100.0/24',
  serverIP: '198.51.100.4',
  highAvailability: { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 },
  replica: 0,
};

describe('renderKeepalivedConf', () => {
  test.each([0, 1] as const)('replica %i (golden)', (replica) =>
    expectGolden(__dirname, `keepalived-${replica}.conf`, renderKeepalivedConf({ ...input, replica })),
  );

  test('each replica speaks from its own address to the other one only, for the same floating address', () => {
    const [a, b] = [0, 1].map((replica) => renderKeepalivedConf({ ...input, replica: replica as 0 | 1 }));
    const line = (text: string, key: string) =>
      text
        .split('\n')
        .find((l) => l.trim().startsWith(key))
        ?.trim();
    expect([line(a!, 'unicast_src_ip'), line(b!, 'unicast_src_ip')]).toEqual([
      'unicast_src_ip 198.51.100.5',
      'unicast_src_ip 198.51.100.6',
    ]);
    expect(a).toContain('unicast_peer {\n        198.51.100.6\n    }');
    expect(b).toContain('unicast_peer {\n        198.51.100.5\n    }');
    for (const t of [a!, b!]) expect(t).toContain('198.51.100.4/24 dev net1');
  });

  test.each([
    { name: 'a name that opens a block', change: { name: 'p {\n  x' } },
    { name: 'a name with a quote', change: { name: 'p"' } },
    { name: 'a namespace with a newline', change: { namespace: 'a\nvrrp_script x {' } },
  ])('the gate refuses $name', ({ change }) =>
    expect(() => renderKeepalivedConf({ ...input, ...change })).toThrow(UnsafeTextError),
  );

  test.each([
    { name: 'a serverIP that is a word but no address', change: { serverIP: 'evil' } },
    { name: 'a CIDR that is none', change: { cidr: '198.51.100.0' } },
    {
      name: 'a replica address that is none',
      change: { highAvailability: { replicaIPs: ['198.51.100.5', 'x'], virtualRouterID: 51 } },
    },
    {
      name: 'a router ID of 0',
      change: { highAvailability: { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 0 } },
    },
  ])('refuses $name', ({ change }) => expect(() => renderKeepalivedConf({ ...input, ...change })).toThrow());
});
