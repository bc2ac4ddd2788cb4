// Structural defaulting as the apiserver does it: a missing property with a schema default gets that default,
// then defaulting continues inside it (so `infraComponents: {}` becomes three enabled components). Pure: returns
// a new value.
import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from './schema/schema-node';
import type { SchemaNode } from './schema/schema-node';

export function applyDefaults<T>(schema: TSchema | SchemaNode, value: T): T {
  return defaultNode(schema, value) as T;
}

function defaultNode(schema: SchemaNode, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return items ? value.map((v) => defaultNode(items, v)) : value;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (out[key] === undefined && prop.default !== undefined) out[key] = structuredClone(prop.default);
    if (out[key] !== undefined) out[key] = defaultNode(prop, out[key]);
  }
  const extra = schema.additionalProperties;
  if (typeof extra === 'object') {
    for (const key of Object.keys(out)) {
      if (!Object.hasOwn(schema.properties ?? {}, key)) out[key] = defaultNode(extra, out[key]);
    }
  }
  return out;
}
