import {
  attachmentToInfraRequests,
  attachmentToSiblingRequests,
  grantToAttachmentRequests,
  grantToInfraRequests,
  infraToAttachmentRequests,
  infraToNeighbourRequests,
  machineToAttachmentRequests,
  machineToInfraRequests,
  namespaceToAttachmentRequests,
  namespaceToInfraRequests,
  nodePoolToAttachmentRequests,
  nodePoolToInfraRequests,
  serviceToInfraRequests,
} from './map-requests';
import { machineRoutingChanged, namespaceAddedOrDeleted } from './predicates';
import { attachment, grant, infra, machine, nodePool, service } from '../../testing/fixtures';
import { IndexedStore, type KubeObject } from '@oooi/kube';
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import {
  addIndexes,
  attachmentIndexers,
  attachmentLookup,
  infraIndexers,
  infraLookup,
  scanned,
  type AttachmentLookup,
  type InfraLookup,
} from './indexes';

const atts = [
  attachment('alpha'),
  attachment('bravo', { controlPlaneNamespace: 'cp-bravo' }),
  attachment('other', { infra: 'vlan200' }),
  // an attachment of another namespace naming a HostedCluster of `hcs`
  {
    ...attachment('t', { hc: 'alpha', hcNamespace: 'hcs', infra: 'vlan9' }),
    metadata: { name: 't', namespace: 'lab' },
  },
];
const infras = [
  infra(),
  infra({ infraComponents: { proxy: { internalProxyService: '172.30.0.1' } } }, 'vlan200'),
  infra({ infraComponents: { proxy: { internalProxyService: 'vlan100-proxy.clusters' } } }, 'vlan300'),
];
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const keys = (reqs: { namespace: string; name: string }[]) =>
  reqs.map((r) => `${r.namespace}/${r.name}`).sort();

/** Caches' stores with the controller's indexes, holding `atts` and `infras`. */
function indexedStores(a: readonly InfraClusterAttachment[], i: readonly Infra[]) {
  const attachments = new IndexedStore<InfraClusterAttachment & KubeObject>();
  const infraStore = new IndexedStore<Infra & KubeObject>();
  a.forEach((x) => attachments.upsert(x as InfraClusterAttachment & KubeObject));
  addIndexes(attachments, infraStore); // after the objects: existing ones are indexed at once
  i.forEach((x) => infraStore.upsert(x as Infra & KubeObject));
  return { attachments, infras: infraStore };
}

type Lookups = { attachments: AttachmentLookup; infras: InfraLookup };
const lookups: [string, () => Lookups][] = [
  [
    'cache indexes',
    () => {
      const s = indexedStores(atts, infras);
      return { attachments: attachmentLookup(s.attachments), infras: infraLookup(s.infras) };
    },
  ],
  [
    'scanned list',
    () => ({
      attachments: attachmentLookup(scanned(atts, attachmentIndexers)),
      infras: infraLookup(scanned(infras, infraIndexers)),
    }),
  ],
];

describe.each(lookups)('map functions over the %s', (_, make) => {
  const { attachments: byIndex, infras: infrasByIndex } = make();
  test.each([
    {
      name: 'attachment → its Infra',
      got: () => attachmentToInfraRequests(atts[2]!),
      want: ['clusters/vlan200'],
    },
    {
      name: 'attachment → its Infra and the Infras of the attachments naming its HostedCluster',
      got: () =>
        attachmentToInfraRequests(
          attachment('x', { hc: 'alpha', infra: 'vlan300' }),
          attachmentLookup(
            scanned(
              [
                ...atts,
                {
                  ...attachment('y', { hc: 'alpha', infra: 'vlan9' }),
                  metadata: { name: 'y', namespace: 'lab' },
                },
              ],
              attachmentIndexers,
            ),
          ),
        ),
      want: ['clusters/vlan100', 'clusters/vlan300', 'lab/vlan9'],
    },
    {
      name: 'attachment → its siblings and the attachments naming its HostedCluster',
      got: () => attachmentToSiblingRequests(attachment('x', { hc: 'alpha', infra: 'vlan200' }), byIndex),
      want: ['clusters/alpha', 'clusters/other'],
    },
    {
      name: 'NodePool → the Infra of the attachment of its HostedCluster',
      got: () => nodePoolToInfraRequests(nodePool('np', 'alpha'), byIndex),
      want: ['clusters/vlan100'],
    },
    {
      name: 'NodePool of an unknown cluster → nothing',
      got: () => nodePoolToInfraRequests(nodePool('np', 'zulu'), byIndex),
      want: [],
    },
    {
      name: 'Machine → the Infra of the attachment whose control-plane namespace holds it',
      got: () => machineToInfraRequests(machine('m', 'cp-bravo', undefined, []), byIndex),
      want: ['clusters/vlan100'],
    },
    {
      name: 'Namespace → the Infra of the attachment whose control-plane namespace it is',
      got: () => namespaceToInfraRequests(namespace('cp-bravo'), byIndex),
      want: ['clusters/vlan100'],
    },
    {
      name: "Namespace that is nobody's control plane (the name of a HostedCluster namespace) → nothing",
      got: () => namespaceToInfraRequests(namespace('clusters'), byIndex),
      want: [],
    },
    {
      name: 'Namespace → the attachment whose control-plane namespace it is, and its siblings',
      got: () => namespaceToAttachmentRequests(namespace('clusters-alpha'), byIndex),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'Service → the Infras whose internalProxyService names it',
      got: () => serviceToInfraRequests(service('vlan100-proxy', 'clusters', '1.2.3.4'), infrasByIndex),
      want: ['clusters/vlan100', 'clusters/vlan300'],
    },
    {
      name: 'attachment → every attachment of the same Infra',
      got: () => attachmentToSiblingRequests(atts[0]!, byIndex),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'HostedClusterGrant → the Infras of the attachments naming a HostedCluster of its namespace',
      got: () => grantToInfraRequests(grant('clusters', ['lab']), byIndex),
      want: ['clusters/vlan100', 'clusters/vlan200'],
    },
    {
      name: 'HostedClusterGrant of another namespace → the Infra of the attachment naming a HostedCluster there',
      got: () => grantToInfraRequests(grant('hcs', ['lab']), byIndex),
      want: ['lab/vlan9'],
    },
    {
      name: 'HostedClusterGrant → the attachments naming a HostedCluster of its namespace, and their siblings',
      got: () => grantToAttachmentRequests(grant('hcs', ['lab']), byIndex),
      want: ['lab/t'],
    },
    {
      name: 'HostedClusterGrant of a namespace nobody names → nothing',
      got: () => grantToAttachmentRequests(grant('nobody', ['lab']), byIndex),
      want: [],
    },
    {
      name: 'Infra → its attachments',
      got: () => infraToAttachmentRequests(infra(), byIndex),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'Machine → the attachments of the same Infra',
      got: () => machineToAttachmentRequests(machine('m', 'clusters-alpha', undefined, []), byIndex),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'NodePool → every attachment of the same Infra, once each',
      got: () => nodePoolToAttachmentRequests(nodePool('np', 'bravo'), byIndex),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
  ])('$name', ({ got, want }) => {
    expect(keys(got())).toEqual(want);
  });
});

test('the indexes follow an update: an attachment moved to another Infra is found under the new one only', () => {
  const s = indexedStores(atts, infras);
  const lookup = attachmentLookup(s.attachments);
  s.attachments.upsert(attachment('alpha', { infra: 'vlan200' }) as InfraClusterAttachment & KubeObject);
  expect(keys(infraToAttachmentRequests(infra(), lookup))).toEqual(['clusters/bravo']);
  expect(keys(infraToAttachmentRequests(infra({}, 'vlan200'), lookup))).toEqual([
    'clusters/alpha',
    'clusters/other',
  ]);
});

describe('machineRoutingChanged', () => {
  const m = (addresses: string[], extra: Record<string, unknown> = {}) => ({
    ...(machine('m', 'cp', 'clusters/np', addresses) as KubeObject),
    ...extra,
  });
  test.each([
    {
      name: 'status noise is filtered',
      old: m(['1.1.1.1']),
      obj: m(['1.1.1.1'], { spec: { x: 1 } }),
      want: false,
    },
    {
      name: 'address order does not matter',
      old: m(['1.1.1.1', '2.2.2.2']),
      obj: m(['2.2.2.2', '1.1.1.1']),
      want: false,
    },
    { name: 'a new address passes', old: m(['1.1.1.1']), obj: m(['1.1.1.1', '2.2.2.2']), want: true },
  ])('$name', ({ old, obj, want }) => {
    expect(machineRoutingChanged({ type: 'update', old, obj })).toBe(want);
  });
  test('adds and deletes pass', () => {
    expect(machineRoutingChanged({ type: 'add', obj: m([]) })).toBe(true);
    expect(machineRoutingChanged({ type: 'delete', obj: m([]) })).toBe(true);
  });
});

test('namespaceAddedOrDeleted: a Namespace appearing or going passes, its updates (labels, phase) do not', () => {
  const ns = namespace('clusters-alpha');
  expect(namespaceAddedOrDeleted({ type: 'add', obj: ns })).toBe(true);
  expect(namespaceAddedOrDeleted({ type: 'delete', obj: ns })).toBe(true);
  expect(
    namespaceAddedOrDeleted({ type: 'update', old: ns, obj: { ...ns, status: { phase: 'Terminating' } } }),
  ).toBe(false);
});

describe('Infras on one VLAN re-queue each other', () => {
  // vlan100 and vlan200 on NAD clusters/vlan100; vlan300 on NAD vlan300 with an overlapping CIDR; vlan400 on NAD
  // vlan400 with a disjoint CIDR; lab/vlan100 on NAD clusters/vlan100 (named with its namespace) but a disjoint CIDR.
  const own = (cidr: string, nad: string, name: string) =>
    infra({ networkConfig: { cidr, networkAttachmentDefinition: nad } }, name);
  const labInfra = infra({
    networkConfig: { cidr: '203.0.113.128/25', networkAttachmentNamespace: 'clusters' },
  });
  const all: Infra[] = [
    own('198.51.100.0/24', 'vlan100', 'vlan100'),
    own('198.51.100.0/24', 'vlan100', 'vlan200'),
    own('198.51.100.128/25', 'vlan300', 'vlan300'),
    own('203.0.113.0/25', 'vlan400', 'vlan400'),
    { ...labInfra, metadata: { ...labInfra.metadata, namespace: 'lab' } },
  ];
  const withRange = attachment('red', { apps: { range: '198.51.100.200-198.51.100.209' } });
  const lookup = attachmentLookup(scanned([withRange], attachmentIndexers));
  test.each([
    {
      name: 'Infra → the other Infras on its NAD or with an overlapping CIDR (not itself)',
      got: () => infraToNeighbourRequests(all[0]!, all),
      want: ['clusters/vlan200', 'clusters/vlan300', 'lab/vlan100'],
    },
    {
      name: 'Infra on a VLAN of its own → nothing',
      got: () => infraToNeighbourRequests(all[3]!, all),
      want: [],
    },
    {
      name: 'attachment with a MetalLB range → its Infra and that Infra’s neighbours',
      got: () => attachmentToInfraRequests(withRange, lookup, all),
      want: ['clusters/vlan100', 'clusters/vlan200', 'clusters/vlan300', 'lab/vlan100'],
    },
    {
      name: 'attachment without apps ingress → its Infra only (it claims no address)',
      got: () => attachmentToInfraRequests(attachment('plain'), lookup, all),
      want: ['clusters/vlan100'],
    },
    {
      name: 'HostedClusterGrant → the Infras of the attachments it admits, and the neighbours of those with a range',
      got: () => grantToInfraRequests(grant('clusters', ['lab']), lookup, all),
      want: ['clusters/vlan100', 'clusters/vlan200', 'clusters/vlan300', 'lab/vlan100'],
    },
  ])('$name', ({ got, want }) => {
    expect(keys(got())).toEqual(want);
  });
});
