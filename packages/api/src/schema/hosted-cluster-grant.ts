// HostedClusterGrant: lets attachments of other namespaces name HostedClusters of the grant's namespace (the
// Gateway API ReferenceGrant pattern). It lives beside the HostedClusters it grants; an attachment in the same
// namespace as its HostedCluster needs none.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { dnsLabel, objectName } from './fields';

/** At most this many namespaces (and HostedCluster names) per grant. */
export const MAX_GRANT_ENTRIES = 64;

export const HostedClusterGrantSpec = Type.Object(
  {
    from: Type.Array(
      Type.Object(
        {
          namespace: dnsLabel(
            'spec.from[].namespace',
            'A namespace whose InfraClusterAttachments may name HostedClusters of this namespace.',
            { minLength: 1 },
          ),
        },
        { description: 'One namespace granted.' },
      ),
      {
        description: 'Namespaces whose attachments this grant admits.',
        minItems: 1,
        maxItems: MAX_GRANT_ENTRIES,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['namespace'],
      },
    ),
    to: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: objectName('spec.to[].name', 'A HostedCluster of this namespace.', { minLength: 1 }),
          },
          { description: 'One HostedCluster granted.' },
        ),
        {
          description:
            'HostedClusters of this namespace the grant covers. Absent or empty: every HostedCluster here.',
          maxItems: MAX_GRANT_ENTRIES,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
        },
      ),
    ),
  },
  {
    description:
      'Which attachments of other namespaces may name HostedClusters of this namespace. Same-namespace references need no grant.',
  },
);

export type HostedClusterGrantSpec = Static<typeof HostedClusterGrantSpec>;
