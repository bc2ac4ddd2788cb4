import { aggregateAttachments, targetOf } from './attachments';
import { attachment, grant, infra, shuffled } from '../../testing/fixtures';

const vlan = infra();
const names = (list: readonly { metadata: { name: string } }[]) => list.map((a) => a.metadata.name);

describe('aggregateAttachments', () => {
  interface Case {
    name: string;
    input: ReturnType<typeof attachment>[];
    elsewhere?: ReturnType<typeof attachment>[];
    grants?: ReturnType<typeof grant>[];
    members: string[];
    refused?: string[];
    included: string[];
    conflicts: string[];
  }
  test.each<Case>([
    {
      name: 'name order, whatever the input order',
      input: [attachment('charlie'), attachment('alpha'), attachment('bravo')],
      members: ['alpha', 'bravo', 'charlie'],
      included: ['alpha', 'bravo', 'charlie'],
      conflicts: [],
    },
    {
      name: 'a terminating attachment is dropped at once',
      input: [attachment('alpha'), attachment('bravo', { terminating: true })],
      members: ['alpha'],
      included: ['alpha'],
      conflicts: [],
    },
    {
      name: 'attachments of another Infra or namespace are ignored',
      input: [
        attachment('alpha'),
        attachment('other', { infra: 'vlan200' }),
        { ...attachment('elsewhere'), metadata: { name: 'elsewhere', namespace: 'lab' } },
      ],
      members: ['alpha'],
      included: ['alpha'],
      conflicts: [],
    },
    {
      name: 'duplicate HostedCluster excludes both',
      input: [
        attachment('alpha', { hc: 'shared' }),
        attachment('bravo', { hc: 'shared' }),
        attachment('charlie'),
      ],
      members: ['alpha', 'bravo', 'charlie'],
      included: ['charlie'],
      conflicts: [
        'DuplicateHostedCluster alpha,bravo: attachments "alpha" and "bravo" reference HostedCluster clusters/shared',
      ],
    },
    {
      name: 'duplicate domain excludes both',
      input: [attachment('alpha'), attachment('bravo', { clusterName: 'alpha' })],
      members: ['alpha', 'bravo'],
      included: [],
      conflicts: [
        'DuplicateHostname alpha,bravo: attachments "alpha" and "bravo" declare domain "alpha.example.com"',
      ],
    },
    {
      name: 'a third colliding attachment is excluded too',
      input: [attachment('a'), attachment('b', { clusterName: 'a' }), attachment('c', { clusterName: 'a' })],
      members: ['a', 'b', 'c'],
      included: [],
      conflicts: [
        'DuplicateHostname a,b: attachments "a" and "b" declare domain "a.example.com"',
        'DuplicateHostname a,c: attachments "a" and "c" declare domain "a.example.com"',
      ],
    },
    {
      name: 'HostedCluster is checked before the domain',
      input: [attachment('a', { hc: 'x' }), attachment('b', { hc: 'x', clusterName: 'a' })],
      members: ['a', 'b'],
      included: [],
      conflicts: ['DuplicateHostedCluster a,b: attachments "a" and "b" reference HostedCluster clusters/x'],
    },
    {
      name: 'same HostedCluster name in another (granted) namespace is no conflict',
      input: [attachment('a', { hc: 'x' }), attachment('b', { hc: 'x', hcNamespace: 'other' })],
      grants: [grant('other', ['clusters'])],
      members: ['a', 'b'],
      included: ['a', 'b'],
      conflicts: [],
    },
    {
      name: 'a HostedCluster of another namespace without a grant: refused, in nothing',
      input: [attachment('a', { hc: 'x' }), attachment('b', { hc: 'x', hcNamespace: 'other' })],
      grants: [grant('other', ['lab']), grant('clusters', ['clusters'])],
      members: ['a'],
      refused: ['b ReferenceNotPermitted'],
      included: ['a'],
      conflicts: [],
    },
    {
      name: "a control-plane namespace that is not HyperShift's: refused, its duplicate domain is no conflict",
      input: [attachment('a'), attachment('b', { clusterName: 'a', controlPlaneNamespace: 'kube-system' })],
      members: ['a'],
      refused: ['b ControlPlaneNamespaceMismatch'],
      included: ['a'],
      conflicts: [],
    },
    {
      name: 'one HostedCluster attached to two Infras of one namespace: ours is excluded, named with the other',
      input: [attachment('a', { hc: 'x' }), attachment('z', { hc: 'x', infra: 'vlan200' }), attachment('b')],
      members: ['a', 'b'],
      included: ['b'],
      conflicts: [
        'DuplicateHostedCluster a: attachments "clusters/a" (Infra "vlan100") and "clusters/z" (Infra "vlan200") reference HostedCluster clusters/x',
      ],
    },
    {
      name: 'an ungranted attachment of another namespace naming our HostedCluster knocks nobody out',
      input: [attachment('a', { hc: 'x' })],
      elsewhere: [{ ...attachment('a', { hc: 'x' }), metadata: { name: 'a', namespace: 'lab' } }],
      grants: [grant('clusters', ['lab'], ['y'])],
      members: ['a'],
      included: ['a'],
      conflicts: [],
    },
    {
      name: 'one HostedCluster attached to an Infra of another (granted) namespace (named after ours): ours is excluded too',
      input: [attachment('a', { hc: 'x' })],
      elsewhere: [{ ...attachment('a', { hc: 'x' }), metadata: { name: 'a', namespace: 'lab' } }],
      grants: [grant('clusters', ['lab'], ['x'])],
      members: ['a'],
      included: [],
      conflicts: [
        'DuplicateHostedCluster a: attachments "clusters/a" (Infra "vlan100") and "lab/a" (Infra "vlan100") reference HostedCluster clusters/x',
      ],
    },
    {
      name: 'the other one terminating: no conflict',
      input: [
        attachment('a', { hc: 'x' }),
        attachment('z', { hc: 'x', infra: 'vlan200', terminating: true }),
      ],
      members: ['a'],
      included: ['a'],
      conflicts: [],
    },
  ])('$name', ({ input, elsewhere, grants, members, refused, included, conflicts }) => {
    for (const order of [input, shuffled(input), [...input].reverse()]) {
      const got = aggregateAttachments(vlan, order, elsewhere, grants);
      expect(names(got.members)).toEqual(members);
      expect(got.refused.map((r) => `${r.attachment.metadata.name} ${r.refusal.reason}`)).toEqual(
        refused ?? [],
      );
      expect(names(got.included)).toEqual(included);
      expect(got.conflicts.map((c) => `${c.reason} ${c.attachments.join(',')}: ${c.message}`)).toEqual(
        conflicts,
      );
    }
  });
});

describe('targetOf', () => {
  test.each([
    {
      name: 'defaults: HostedCluster namespace clusters, control plane <hc-ns>-<hc-name>',
      input: attachment('alpha'),
      want: { hc: 'clusters/alpha', cpns: 'clusters-alpha', domain: 'alpha.example.com' },
    },
    {
      name: 'explicit control-plane namespace is read as written (referenceRefusal checks it)',
      input: attachment('alpha', { hcNamespace: 'hcs', controlPlaneNamespace: 'cp-alpha' }),
      want: { hc: 'hcs/alpha', cpns: 'cp-alpha', domain: 'alpha.example.com' },
    },
    {
      name: "the default control-plane namespace is HyperShift's (dots of the name become dashes)",
      input: attachment('alpha', { hc: 'a.b' }),
      want: { hc: 'clusters/a.b', cpns: 'clusters-a-b', domain: 'alpha.example.com' },
    },
  ])('$name', ({ input, want }) => {
    const t = targetOf(input);
    expect({
      hc: `${t.hostedCluster.namespace}/${t.hostedCluster.name}`,
      cpns: t.controlPlaneNamespace,
      domain: t.domain,
    }).toEqual(want);
  });
});
