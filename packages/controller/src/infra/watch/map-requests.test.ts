import {
  attachmentToInfraRequests,
  attachmentToSiblingRequests,
  infraToAttachmentRequests,
  machineToAttachmentRequests,
  machineToInfraRequests,
  nodePoolToInfraRequests,
  serviceToInfraRequests,
} from './map-requests';
import { machineRoutingChanged } from './predicates';
import { attachment, infra, machine, nodePool, service } from '../../testing/fixtures';
import type { KubeObject } from '@oooi/kube';

const atts = [
  attachment('alpha'),
  attachment('bravo', { controlPlaneNamespace: 'cp-bravo' }),
  attachment('other', { infra: 'vlan200' }),
];
const keys = (reqs: { namespace: string; name: string }[]) => reqs.map((r) => `${r.namespace}/${r.name}`);

describe('map functions', () => {
  test.each([
    {
      name: 'attachment → its Infra',
      got: () => attachmentToInfraRequests(atts[2]!),
      want: ['clusters/vlan200'],
    },
    {
      name: 'attachment → its Infra and the Infras of the attachments naming its HostedCluster',
      got: () =>
        attachmentToInfraRequests(attachment('x', { hc: 'alpha', infra: 'vlan300' }), [
          ...atts,
          { ...attachment('y', { hc: 'alpha', infra: 'vlan9' }), metadata: { name: 'y', namespace: 'lab' } },
        ]),
      want: ['clusters/vlan300', 'clusters/vlan100', 'lab/vlan9'],
    },
    {
      name: 'attachment → its siblings and the attachments naming its HostedCluster',
      got: () => attachmentToSiblingRequests(attachment('x', { hc: 'alpha', infra: 'vlan200' }), atts),
      want: ['clusters/other', 'clusters/alpha'],
    },
    {
      name: 'NodePool → the Infra of the attachment of its HostedCluster',
      got: () => nodePoolToInfraRequests(nodePool('np', 'alpha'), atts),
      want: ['clusters/vlan100'],
    },
    {
      name: 'NodePool of an unknown cluster → nothing',
      got: () => nodePoolToInfraRequests(nodePool('np', 'zulu'), atts),
      want: [],
    },
    {
      name: 'Machine → the Infra of the attachment whose control-plane namespace holds it',
      got: () => machineToInfraRequests(machine('m', 'cp-bravo', undefined, []), atts),
      want: ['clusters/vlan100'],
    },
    {
      name: 'Service → the Infras whose internalProxyService names it',
      got: () =>
        serviceToInfraRequests(service('vlan100-proxy', 'clusters', '1.2.3.4'), [
          infra(),
          infra({ infraComponents: { proxy: { internalProxyService: '172.30.0.1' } } }, 'vlan200'),
          infra(
            { infraComponents: { proxy: { internalProxyService: 'vlan100-proxy.clusters' } } },
            'vlan300',
          ),
        ]),
      want: ['clusters/vlan100', 'clusters/vlan300'],
    },
    {
      name: 'attachment → every attachment of the same Infra',
      got: () => attachmentToSiblingRequests(atts[0]!, atts),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'Infra → its attachments',
      got: () => infraToAttachmentRequests(infra(), atts),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
    {
      name: 'Machine → the attachments of the same Infra',
      got: () => machineToAttachmentRequests(machine('m', 'clusters-alpha', undefined, []), atts),
      want: ['clusters/alpha', 'clusters/bravo'],
    },
  ])('$name', ({ got, want }) => {
    expect(keys(got())).toEqual(want);
  });
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
