// Test fixtures shared by the validator tests: the examples and small objects of the child kinds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validateObject } from '../validate/validate-object';
import { formatFieldError } from '../validate/field-error';

export const examples = join(__dirname, '../../../../examples');
export const load = (file: string): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync(join(examples, file), 'utf8')).map(
    (d) => d.toJS() as Record<string, unknown>,
  );
export const [infra] = load('infra.yaml') as [Record<string, unknown>];
export const [alpha, bravo] = load('attachments.yaml') as [Record<string, unknown>, Record<string, unknown>];
export const [dhcp] = load('dhcpserver.yaml') as [Record<string, unknown>];
export const proxy = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'ProxyServer',
  metadata: { name: 'p', namespace: 'lab' },
  spec: {
    networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.4' },
    backends: [
      {
        name: 'api',
        hostname: 'api.c.example.com',
        port: 6443,
        targetService: 'kube-apiserver',
        targetPort: 6443,
        targetNamespace: 'clusters-c',
      },
    ],
  },
};
export const dns = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'DNSServer',
  metadata: { name: 'd', namespace: 'lab' },
  spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3' }, upstreams: ['resolv.conf'] },
};

/** A copy of `base` with the dotted `path` set to `value` (undefined deletes it). */
export function set(base: object, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let cur = copy;
  for (const k of keys.slice(0, -1)) {
    cur[k] ??= {};
    cur = cur[k] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  return copy;
}
export const errorsOf = (obj: unknown): string[] => {
  const r = validateObject(obj);
  return r.ok ? [] : r.errors.map(formatFieldError);
};
