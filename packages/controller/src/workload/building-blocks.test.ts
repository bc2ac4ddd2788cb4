import fc from 'fast-check';
import { conditionChanged, listProblems } from './conditions';
import { contentHash, shortHash } from './hash';
import { multusNetworks } from './multus';
import { containerSecurityContext, podSecurityContext } from './security';

describe('contentHash', () => {
  test.each([
    { name: 'empty text: the FNV-1a 64 offset basis', text: '', want: 'cbf29ce484222325' },
    { name: 'one byte', text: 'a', want: 'af63dc4c8601ec8c' },
  ])('$name', ({ text, want }) => {
    expect(contentHash(text)).toBe(want);
  });

  // The definition, one BigInt step per byte: what the limb arithmetic must equal (names and zone serials derive
  // from the hash, so a different value would rename objects on upgrade).
  const reference = (text: string): string => {
    let hash = 0xcbf29ce484222325n;
    for (const byte of new TextEncoder().encode(text))
      hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
    return hash.toString(16).padStart(16, '0');
  };

  test('equals FNV-1a 64 computed on 64-bit integers, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(contentHash(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
    const long = 'zone example.com. 3600 IN A 198.51.100.7\n'.repeat(3000);
    expect(contentHash(long)).toBe(reference(long));
    expect(contentHash('\u00ff'.repeat(64))).toBe(reference('\u00ff'.repeat(64)));
  });

  test('shortHash is the start of the content hash', () => {
    expect(shortHash('a')).toBe('af63dc');
    expect(shortHash('a', 8)).toBe('af63dc4c');
  });
});

describe('listProblems', () => {
  test.each([
    { name: 'one', n: 1, want: 'p0' },
    { name: 'twenty: all shown', n: 20, parts: 20, last: 'p19' },
    { name: 'twenty-five: twenty, then counted', n: 25, parts: 21, last: 'and 5 more' },
  ])('$name', ({ n, want, parts, last }) => {
    const text = listProblems(Array.from({ length: n }, (_, i) => `p${i}`));
    if (want) expect(text).toBe(want);
    if (parts) expect(text.split('; ')).toHaveLength(parts);
    if (last) expect(text.split('; ').at(-1)).toBe(last);
  });
});

describe('conditionChanged', () => {
  const before = [
    { type: 'Ready', status: 'False', reason: 'R', message: 'm', lastTransitionTime: 't' },
  ] as const;
  test.each([
    {
      name: 'same status, reason and message',
      next: { status: 'False', reason: 'R', message: 'm' },
      want: false,
    },
    { name: 'another message', next: { status: 'False', reason: 'R', message: 'n' }, want: true },
    { name: 'another reason', next: { status: 'False', reason: 'S', message: 'm' }, want: true },
    { name: 'another status', next: { status: 'True', reason: 'R', message: 'm' }, want: true },
  ] as const)('$name', ({ next, want }) => {
    expect(conditionChanged([...before], { type: 'Ready', ...next })).toBe(want);
  });

  test('a condition seen for the first time has changed', () => {
    expect(conditionChanged(undefined, { type: 'Ready', status: 'True', reason: 'R', message: 'm' })).toBe(
      true,
    );
  });
});

describe('security contexts', () => {
  test('a low port gets the unprivileged-port sysctl', () => {
    expect(podSecurityContext({ uid: 65532, lowestPort: 53 })).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '53' }],
    });
  });

  test('a high port needs no sysctl', () => {
    expect(podSecurityContext({ uid: 1000, lowestPort: 1053 })).not.toHaveProperty('sysctls');
  });

  test.each([
    { name: 'no capability by default', keep: undefined, want: { drop: ['ALL'] } },
    {
      name: 'only what the workload lists',
      keep: ['NET_BIND_SERVICE'] as const,
      want: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
    },
  ])('$name', ({ keep, want }) => {
    expect(containerSecurityContext(keep)).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: want,
      readOnlyRootFilesystem: true,
    });
  });
});

describe('multusNetworks', () => {
  const net = { cidr: '198.51.100.0/24', serverIP: '198.51.100.3' };
  test.each([
    {
      name: 'the attachment in its own namespace',
      net: { ...net, networkAttachmentName: 'vlan100', networkAttachmentNamespace: 'nets' },
      want: [{ name: 'vlan100', namespace: 'nets', ips: ['198.51.100.3/24'] }],
    },
    {
      name: 'no namespace: the workload namespace',
      net: { ...net, networkAttachmentName: 'vlan100' },
      want: [{ name: 'vlan100', namespace: 'clusters', ips: ['198.51.100.3/24'] }],
    },
  ])('$name', ({ net: n, want }) => {
    expect(JSON.parse(multusNetworks(n, 'clusters')!)).toEqual(want);
  });

  test('without a NetworkAttachmentDefinition the workload is not on the VLAN', () => {
    expect(multusNetworks(net, 'clusters')).toBeUndefined();
  });
});
