// Status shapes shared by every kind: metav1.Condition lists (a list-map keyed by `type`, so several
// field managers — controller, oooi-dhcp, oooi-xds — can each own their own conditions) and observedGeneration.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { enumOf } from './fields';

export const Condition = Type.Object(
  {
    type: Type.String({ description: 'Type of condition in CamelCase, e.g. Ready.', maxLength: 316 }),
    status: enumOf(['True', 'False', 'Unknown'] as const, 'Status of the condition: True, False or Unknown.'),
    observedGeneration: Type.Optional(
      Type.Integer({
        description: 'The .metadata.generation the condition was set for.',
        minimum: 0,
        format: 'int64',
      }),
    ),
    lastTransitionTime: Type.String({
      description: 'Last time the condition moved from one status to another.',
      format: 'date-time',
    }),
    reason: Type.String({
      description: "Programmatic identifier in CamelCase for the condition's last transition.",
      maxLength: 1024,
    }),
    message: Type.String({ description: 'Human-readable details about the transition.', maxLength: 32768 }),
  },
  { description: 'One aspect of the current state (metav1.Condition).' },
);
export type Condition = Static<typeof Condition>;

export function conditions(description: string) {
  return Type.Optional(
    Type.Array(Condition, {
      description,
      maxItems: 32,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    }),
  );
}

export const observedGeneration = Type.Optional(
  Type.Integer({
    description: 'The .metadata.generation the controller last reconciled.',
    minimum: 0,
    format: 'int64',
  }),
);
