// Everything the apiserver checks on one object of ours, offline: apiVersion/kind, metadata.name, the
// structural schema with its defaults, and every CEL rule (through its TS twin, with the same message).
import { applyDefaults } from '../defaults';
import { API_VERSION, kindInfo } from '../kinds';
import { isPlainObject } from '../schema/schema-node';
import type { SchemaNode } from '../schema/schema-node';
import type { OooiObject } from '../types';
import { compareFieldErrors } from './field-error';
import type { FieldError, ValidationResult } from './field-error';
import { validateMetadata } from './validate-metadata';
import { validateSchema } from './validate-schema';

/** A scalar for messages; String() of an object such as `{toString: {}}` would throw. */
const scalarText = (v: unknown): string =>
  typeof v === 'object' && v !== null ? `(${Array.isArray(v) ? 'array' : 'object'})` : String(v);

/** Validates (and defaults) one object of our kinds as the apiserver would on create. */
export function validateObject(obj: unknown): ValidationResult<OooiObject> {
  if (!isPlainObject(obj)) return fail([{ path: '', message: 'Invalid value: an object is required' }]);
  const info = typeof obj.kind === 'string' ? kindInfo(obj.kind) : undefined;
  if (obj.apiVersion !== API_VERSION || !info) {
    return fail([
      {
        path: 'kind',
        message: `Unsupported value: ${JSON.stringify(`${scalarText(obj.apiVersion)}, Kind=${scalarText(obj.kind)}`)}: expected ${API_VERSION} Infra, InfraClusterAttachment, HostedClusterGrant, DHCPServer, DNSServer or ProxyServer`,
      },
    ]);
  }
  const errors: FieldError[] = [...validateMetadata(obj.metadata)];
  const spec = info.spec as SchemaNode;
  const defaulted: Record<string, unknown> = { ...obj, spec: applyDefaults(spec, obj.spec) };
  if (defaulted.spec === undefined) errors.push({ path: 'spec', message: 'Required value' });
  else errors.push(...validateSchema(spec, defaulted.spec, 'spec'));
  // Offline input may carry a status (as `kubectl get -o yaml` prints it); it is read, so it is checked too.
  // A kind without status (HostedClusterGrant) has none to check; the apiserver drops one.
  const status = info.status ? obj.status : undefined;
  if (status !== undefined) errors.push(...validateSchema(info.status!, status, 'status'));
  if (errors.length > 0) return fail(errors);
  const value = { ...defaulted, status };
  if (value.status === undefined) delete value.status;
  // The schema walk above has checked every field of the object against its kind's schema.
  return { ok: true, value: value as OooiObject };
}

function fail(errors: FieldError[]): ValidationResult<OooiObject> {
  return { ok: false, errors: [...errors].sort(compareFieldErrors) };
}
