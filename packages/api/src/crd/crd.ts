// Turns a KindInfo into an apiextensions.k8s.io/v1 CustomResourceDefinition (structural schema, status
// subresource, printer columns). Pure: the generate script writes the result to crds/.
import type { TSchema } from '@sinclair/typebox';
import { API_VERSION, GROUP, VERSION } from '../kinds';
import type { KindInfo } from '../kinds';

/** A plain JSON schema as the CRD carries it: TypeBox markers and the TS twins of CEL rules removed. */
export function toOpenApi(schema: TSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'x-kubernetes-validations') {
      out[key] = (value as { rule: string; message: string; fieldPath?: string }[]).map((r) => ({
        rule: r.rule,
        message: r.message,
        ...(r.fieldPath ? { fieldPath: r.fieldPath } : {}),
      }));
    } else if (key === 'properties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, TSchema>).map(([k, v]) => [k, toOpenApi(v)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = toOpenApi(value as TSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function rootSchema(info: KindInfo): Record<string, unknown> {
  return {
    type: 'object',
    description: info.description,
    required: ['spec'],
    properties: {
      apiVersion: {
        type: 'string',
        description: `APIVersion defines the versioned schema of this representation of an object (${API_VERSION}).`,
      },
      kind: {
        type: 'string',
        description: `Kind is the REST resource this object represents (${info.kind}).`,
      },
      metadata: { type: 'object' },
      spec: toOpenApi(info.spec),
      ...(info.status ? { status: toOpenApi(info.status) } : {}),
    },
  };
}

export function toCrd(info: KindInfo): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${info.plural}.${GROUP}`,
      labels: { 'app.kubernetes.io/name': 'oooi', 'app.kubernetes.io/part-of': 'oooi' },
    },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: info.kind,
        listKind: `${info.kind}List`,
        plural: info.plural,
        singular: info.singular,
        shortNames: [...info.shortNames],
        categories: ['oooi'],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          ...(info.status ? { subresources: { status: {} } } : {}),
          additionalPrinterColumns: info.printerColumns.map((c) => ({ ...c })),
          schema: { openAPIV3Schema: rootSchema(info) },
        },
      ],
    },
  };
}
