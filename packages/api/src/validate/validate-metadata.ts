// The apiserver's checks of an object's metadata, offline: the name (RFC 1123 subdomain), the namespace (RFC 1123
// label: it becomes part of child names, file names and generated comments), and label and annotation keys and
// values (apimachinery's ValidateLabels / ValidateAnnotations). Messages copy the apiserver's wording.
import { isPlainObject } from '../schema/schema-node';
import type { FieldError } from './field-error';

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** apimachinery's TotalAnnotationSizeLimitB: keys and values together. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const show = (v: unknown): string =>
  JSON.stringify(
    typeof v === 'object' && v !== null ? `(${Array.isArray(v) ? 'array' : 'object'})` : String(v),
  );

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** The problems of an RFC 1123 label (a namespace), or [] when VALUE is one. */
export function dnsLabelErrors(path: string, value: unknown): FieldError[] {
  if (typeof value !== 'string')
    return [{ path, message: `Invalid value: ${show(value)}: must be a string` }];
  if (value.length > 63)
    return [{ path, message: `Invalid value: ${show(value)}: must be no more than 63 characters` }];
  return dnsLabel.test(value) ? [] : [{ path, message: `Invalid value: ${show(value)}: ${LABEL_MSG}` }];
}

/** The problems of a qualified name (`[prefix/]name`, a label or annotation key), or []. */
export function qualifiedNameErrors(path: string, key: string): FieldError[] {
  const parts = key.split('/');
  const bad = (why: string): FieldError[] => [{ path, message: `Invalid value: ${show(key)}: ${why}` }];
  if (parts.length > 2)
    return bad('a qualified name must consist of an optional DNS subdomain prefix and a name part');
  const name = parts[parts.length - 1]!;
  const prefix = parts.length === 2 ? parts[0]! : undefined;
  if (prefix !== undefined && (prefix.length > 253 || !dnsSubdomain.test(prefix)))
    return bad(`prefix part ${SUBDOMAIN_MSG}`);
  if (name.length === 0) return bad('name part must be non-empty');
  if (name.length > 63) return bad('name part must be no more than 63 characters');
  return qualifiedNamePart.test(name) ? [] : bad(NAME_PART_MSG);
}

/** Label keys and values as apimachinery's ValidateLabels checks them. */
export function labelErrors(path: string, labels: unknown): FieldError[] {
  if (labels === undefined) return [];
  if (!isPlainObject(labels)) return [{ path, message: 'Invalid value: must be a map of strings' }];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    errors.push(...qualifiedNameErrors(path, key));
    const at = `${path}[${key}]`;
    if (typeof value !== 'string')
      errors.push({ path: at, message: `Invalid value: ${show(value)}: must be a string` });
    else if (value.length > 63)
      errors.push({ path: at, message: `Invalid value: ${show(value)}: must be no more than 63 characters` });
    else if (value !== '' && !qualifiedNamePart.test(value))
      errors.push({
        path: at,
        message: `Invalid value: ${show(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      });
  }
  return errors;
}

/** Annotation keys (qualified names) and the total size, as apimachinery's ValidateAnnotations checks them. */
export function annotationErrors(path: string, annotations: unknown): FieldError[] {
  if (annotations === undefined) return [];
  if (!isPlainObject(annotations)) return [{ path, message: 'Invalid value: must be a map of strings' }];
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    errors.push(...qualifiedNameErrors(path, key));
    if (typeof value !== 'string')
      errors.push({ path: `${path}[${key}]`, message: `Invalid value: ${show(value)}: must be a string` });
    size += key.length + (typeof value === 'string' ? value.length : 0);
  }
  if (size > MAX_ANNOTATIONS_BYTES)
    errors.push({ path, message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes` });
  return errors;
}

/** metadata.name, metadata.namespace, metadata.labels and metadata.annotations as the apiserver checks them. */
export function validateMetadata(metadata: unknown): FieldError[] {
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    return [{ path: 'metadata.name', message: 'Required value: name or generateName is required' }];
  }
  const errors: FieldError[] = [];
  if (metadata.name.length > 253 || !dnsSubdomain.test(metadata.name)) {
    errors.push({
      path: 'metadata.name',
      message: `Invalid value: ${show(metadata.name)}: ${SUBDOMAIN_MSG}`,
    });
  }
  if (metadata.namespace !== undefined && metadata.namespace !== '')
    errors.push(...dnsLabelErrors('metadata.namespace', metadata.namespace));
  errors.push(...labelErrors('metadata.labels', metadata.labels));
  errors.push(...annotationErrors('metadata.annotations', metadata.annotations));
  return errors;
}
