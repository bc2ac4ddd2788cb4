// Structural validation of a value against its schema, with the apiserver's wording, plus the TS twins of
// every CEL rule on the way. Reports every problem, each with its path.
import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from '../schema/schema-node';
import type { SchemaNode } from '../schema/schema-node';
import type { FieldError } from './field-error';

type Report = (path: string, message: string) => void;
interface Emit {
  /**
   * Type, enum, maxLength, maxItems, maxProperties, required, unknown-field and duplicate errors: the apiserver
   * then skips CEL.
   */
  readonly blocking: Report;
  /** Other schema keywords (pattern, minLength, minimum, maximum, minItems): CEL still runs. */
  readonly schema: Report;
  readonly cel: Report;
}

const typeOf = (v: unknown): string =>
  Array.isArray(v)
    ? 'array'
    : v === null
      ? 'null'
      : Number.isInteger(v)
        ? 'integer'
        : typeof v === 'number'
          ? 'number'
          : typeof v;

/**
 * Like the apiserver (apiextensions-apiserver's `hasBlockingErr`), CEL rules are not evaluated when the object
 * has a *blocking* schema error — a wrong type, an unsupported enum value, too long, too many, a missing
 * required field — ("some validation rules were not checked because the object was invalid"); after other
 * schema errors (pattern, minLength, minimum, maximum) the CEL rules still run and report.
 */
export function validateSchema(schema: TSchema | SchemaNode, value: unknown, path: string): FieldError[] {
  const blocking: FieldError[] = [];
  const other: FieldError[] = [];
  const cel: FieldError[] = [];
  walk(schema, value, path, {
    blocking: (p, message) => blocking.push({ path: p, message }),
    schema: (p, message) => other.push({ path: p, message }),
    cel: (p, message) => cel.push({ path: p, message }),
  });
  return [...blocking, ...other, ...(blocking.length > 0 ? [] : cel)];
}

function walk(schema: SchemaNode, value: unknown, path: string, emit: Emit): void {
  const actual = typeOf(value);
  if (schema.type && actual !== schema.type) {
    emit.blocking(
      path,
      `Invalid value: "${actual}": ${path} in body must be of type ${schema.type}: "${actual}"`,
    );
    return;
  }
  if (schema.type === 'string') checkString(schema, value as string, path, emit);
  if (schema.type === 'integer') checkInteger(schema, value as number, path, emit);
  if (schema.type === 'object') checkObject(schema, value as Record<string, unknown>, path, emit);
  if (schema.type === 'array') checkArray(schema, value as unknown[], path, emit);
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    if (!rule.check(value)) emit.cel(path + (rule.fieldPath ?? ''), rule.message);
  }
}

function checkString(schema: SchemaNode, value: string, path: string, emit: Emit): void {
  if (schema.enum && !schema.enum.includes(value)) {
    emit.blocking(
      path,
      `Unsupported value: "${value}": supported values: ${schema.enum.map((e) => `"${e}"`).join(', ')}`,
    );
  }
  if (schema.maxLength !== undefined && [...value].length > schema.maxLength) {
    emit.blocking(path, `Too long: may not be more than ${schema.maxLength} bytes`);
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    emit.schema(
      path,
      `Invalid value: "${value}": ${path} in body should be at least ${schema.minLength} chars long`,
    );
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
    emit.schema(path, `Invalid value: "${value}": ${path} in body should match '${schema.pattern}'`);
  }
}

function checkInteger(schema: SchemaNode, value: number, path: string, emit: Emit): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    emit.schema(
      path,
      `Invalid value: ${value}: ${path} in body should be greater than or equal to ${schema.minimum}`,
    );
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    emit.schema(
      path,
      `Invalid value: ${value}: ${path} in body should be less than or equal to ${schema.maximum}`,
    );
  }
}

function checkObject(schema: SchemaNode, value: Record<string, unknown>, path: string, emit: Emit): void {
  const props = schema.properties ?? {};
  const count = Object.values(value).filter((v) => v !== undefined).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    emit.blocking(path, `Too many: ${count}: must have at most ${schema.maxProperties} items`);
  }
  for (const key of schema.required ?? []) {
    if (value[key] === undefined) emit.blocking(`${path}.${key}`, 'Required value');
  }
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    // Own properties only: a key named `constructor` or `__proto__` is an unknown field, not Object's.
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    if (prop) walk(prop, child, `${path}.${key}`, emit);
    else if (typeof schema.additionalProperties === 'object')
      walk(schema.additionalProperties, child, `${path}.${key}`, emit);
    else if (schema.properties) emit.blocking(`${path}.${key}`, `unknown field "${path}.${key}"`);
  }
}

function checkArray(schema: SchemaNode, value: unknown[], path: string, emit: Emit): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    emit.blocking(path, `Too many: ${value.length}: must have at most ${schema.maxItems} items`);
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    emit.schema(
      path,
      `Invalid value: ${value.length}: ${path} in body should have at least ${schema.minItems} items`,
    );
  }
  const keys = schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (schema.items) walk(schema.items, item, `${path}[${i}]`, emit);
    if (keys.length === 0 || !isPlainObject(item)) return;
    const identity = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(item[k])}`).join(', ');
    if (seen.has(identity)) emit.blocking(`${path}[${i}]`, `Duplicate value: {${identity}}`);
    seen.add(identity);
  });
}
