// TypeBox builders for the field shapes our kinds share. Every builder takes the field's full path
// (for rule messages) and its description (for `kubectl explain` and docs/crd-reference.md).
import { Type } from '@sinclair/typebox';
import type { TSchema, TString, TUnsafe, TInteger } from '@sinclair/typebox';
import { cidrSyntax, ipv4Syntax, matches } from './cel';
import type { CelRule } from './cel';

/** One DNS label (RFC 1123): at most 63 characters. */
export const labelRegex = '[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?';
const label = labelRegex;
const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** A dotted-quad IPv4 address (no leading zeros), unanchored. */
export const ipv4Regex = `(${octet}[.]){3}${octet}`;
export const dnsLabelPattern = `^${label}$`;
export const dnsSubdomainPattern = `^${label}([.]${label})*$`;
export const domainPattern = `^${label}([.]${label})+$`;
/** A host name as a TLS SNI or a DNS record: one or more labels, optionally led by a `*.` wildcard label. */
export const hostnamePattern = `^([*][.])?${label}([.]${label})*$`;

const rules = (list: CelRule[]) => ({ 'x-kubernetes-validations': list });

export function text(description: string, extra: Record<string, unknown> = {}): TString {
  return Type.String({ description, maxLength: 253, ...extra });
}

export function ipv4(path: string, description: string): TString {
  return Type.String({ description, maxLength: 15, ...rules([ipv4Syntax(path)]) });
}

export function cidrV4(path: string, description: string): TString {
  return Type.String({ description, maxLength: 18, ...rules(cidrSyntax(path)) });
}

export function dnsLabel(path: string, description: string, extra: Record<string, unknown> = {}): TString {
  return Type.String({
    description,
    maxLength: 63,
    ...extra,
    ...rules([
      matches(
        path,
        dnsLabelPattern,
        "a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
      ),
    ]),
  });
}

export function objectName(path: string, description: string, extra: Record<string, unknown> = {}): TString {
  return Type.String({
    description,
    maxLength: 253,
    ...extra,
    ...rules([
      matches(path, dnsSubdomainPattern, "a Kubernetes object name: lower-case letters, digits, '-' and '.'"),
    ]),
  });
}

export function domain(path: string, description: string): TString {
  return Type.String({
    description,
    maxLength: 253,
    ...rules([
      matches(path, domainPattern, 'a DNS domain of two or more lower-case labels, such as example.com'),
    ]),
  });
}

export function hostname(path: string, description: string): TString {
  return Type.String({
    description,
    maxLength: 253,
    ...rules([
      matches(
        path,
        hostnamePattern,
        "a lower-case host name, optionally starting with a '*.' wildcard label",
      ),
    ]),
  });
}

export function enumOf<T extends string>(values: readonly T[], description: string, def?: T): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], description, ...(def ? { default: def } : {}) });
}

export function port(description: string, def?: number): TInteger {
  return Type.Integer({ description, minimum: 1, maximum: 65535, ...(def ? { default: def } : {}) });
}

export function optionalFlag(description: string, def: boolean) {
  return Type.Optional(Type.Boolean({ description, default: def }));
}

/** Entries a label or annotation map may hold (bounds the CEL rules' cost; Services rarely carry more). */
export const MAX_MAP_ENTRIES = 32;
/** An annotation value's length: with MAX_MAP_ENTRIES it keeps a map under the apiserver's 256 KiB total. */
export const MAX_ANNOTATION_VALUE = 4096;
const subdomainRegex = '[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const namePartRegex = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';
/** A label or annotation key (apimachinery's qualified name): `[<DNS subdomain>/]<name part of ≤ 63>`. */
export const qualifiedNamePattern = `^(${subdomainRegex}/)?${namePartRegex}$`;
/** A label value: empty, or ≤ 63 letters, digits, '-', '_' or '.' starting and ending with a letter or digit. */
export const labelValuePattern = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

function isQualifiedName(key: string): boolean {
  const slash = key.indexOf('/');
  return [...key].length <= 317 && (slash < 0 || slash <= 253) && new RegExp(qualifiedNamePattern).test(key);
}

const entriesOf = (self: unknown): [string, unknown][] =>
  self !== null && typeof self === 'object' ? Object.entries(self) : [];

function keyRule(path: string): CelRule {
  return {
    rule: `self.all(k, size(k) <= 317 && (!k.contains('/') || k.indexOf('/') <= 253) && k.matches('${qualifiedNamePattern}'))`,
    message: `${path} keys must be qualified names: an optional DNS subdomain of at most 253 characters and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`,
    check: (self) => entriesOf(self).every(([k]) => isQualifiedName(k)),
  };
}

function labelValueRule(path: string): CelRule {
  return {
    rule: `self.all(k, self[k].matches('${labelValuePattern}'))`,
    message: `${path} values must be empty or letters, digits, '-', '_' or '.', starting and ending with a letter or digit`,
    check: (self) =>
      entriesOf(self).every(([, v]) => typeof v !== 'string' || new RegExp(labelValuePattern).test(v)),
  };
}

function stringMap(maxValue: number, description: string, list: CelRule[]): TUnsafe<Record<string, string>> {
  return Type.Unsafe<Record<string, string>>({
    type: 'object',
    description,
    maxProperties: MAX_MAP_ENTRIES,
    additionalProperties: { type: 'string', maxLength: maxValue },
    ...rules(list),
  });
}

/** Labels for an object oooi creates, checked as the apiserver checks `metadata.labels` (at most 32). */
export function labelMap(path: string, description: string): TUnsafe<Record<string, string>> {
  return stringMap(63, `${description} At most ${MAX_MAP_ENTRIES} labels.`, [
    keyRule(path),
    labelValueRule(path),
  ]);
}

/** Annotations for an object oooi creates: keys as the apiserver checks them, at most 32 of ≤ 4,096 characters. */
export function annotationMap(path: string, description: string): TUnsafe<Record<string, string>> {
  return stringMap(
    MAX_ANNOTATION_VALUE,
    `${description} At most ${MAX_MAP_ENTRIES} annotations of at most ${MAX_ANNOTATION_VALUE} characters each.`,
    [keyRule(path)],
  );
}

/** An image reference; empty means the operator's default (controller flag / Helm value). No schema default. */
export function image(description: string): TString {
  return Type.String({
    description: `${description} Empty means the operator's default image, set by the controller's flags (and the Helm chart's values).`,
    maxLength: 512,
  });
}

export function stringList(
  items: TSchema,
  description: string,
  maxItems: number,
): ReturnType<typeof Type.Array> {
  return Type.Array(items, { description, maxItems });
}

/** IPv4 CIDR syntax as an OpenAPI pattern: for list items inside large lists, where a CEL rule per item would exceed the cost budget. */
export const cidrV4Pattern = `^${ipv4Regex}/([0-9]|[12][0-9]|3[0-2])$`;

/** A CIDR checked by OpenAPI pattern only (no CEL): used inside large lists (the CEL cost budget). */
export function cidrV4ByPattern(description: string): TString {
  return Type.String({ description, maxLength: 18, pattern: cidrV4Pattern });
}

/**
 * A DNS label checked by OpenAPI pattern only (no CEL): used inside large lists, where a CEL rule per item is what the
 * apiserver spends most on when it validates a write (a 1,400-backend ProxyServer, its status writes included).
 */
export function dnsLabelByPattern(description: string, extra: Record<string, unknown> = {}): TString {
  return Type.String({ description, maxLength: 63, ...extra, pattern: dnsLabelPattern });
}

/** An IPv4 address checked by OpenAPI pattern only (no CEL): inside large lists, as dnsLabelByPattern. */
export function ipv4ByPattern(description: string): TString {
  return Type.String({ description, maxLength: 15, pattern: `^${ipv4Regex}$` });
}

/** A host name checked by OpenAPI pattern only (no CEL): used inside large lists (the CEL cost budget). */
export function hostnameByPattern(description: string): TString {
  return Type.String({ description, maxLength: 253, pattern: hostnamePattern });
}
