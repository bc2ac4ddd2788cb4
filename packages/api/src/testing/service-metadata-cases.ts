// Labels and annotations an attachment copies onto the Services oooi creates (externalService, appsIngress.service):
// rows with the exact messages, shared by the unit tests and the apiserver-agreement e2e test (the CRD's CEL rules
// must say the same as the TS twins).
import type { Case } from './case';
import { alpha, set } from './fixtures';

const ext = 'spec.externalService';
const apps = 'spec.appsIngress.service';
const keysMessage = (path: string): string =>
  `${path} keys must be qualified names: an optional DNS subdomain of at most 253 characters and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
const valuesMessage = (path: string): string =>
  `${path} values must be empty or letters, digits, '-', '_' or '.', starting and ending with a letter or digit`;
const many = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

export const serviceMetadataAcceptCases: Case[] = [
  {
    name: 'externalService labels and annotations at their bounds',
    input: set(alpha, ext, {
      enabled: true,
      labels: {
        ...many(31),
        [`${'a'.repeat(253)}/${'b'.repeat(63)}`]: 'x'.repeat(63),
      },
      annotations: {
        'external-dns.alpha.kubernetes.io/hostname': 'oauth.c.example.com',
        free: 'x y\nz'.repeat(800),
      },
    }),
  },
  {
    name: 'an empty label value',
    input: set(alpha, `${apps}.labels`, { 'example.com/publish': '' }),
  },
];

export const serviceMetadataRejectCases: Case[] = [
  {
    name: 'an externalService label key with a space',
    input: set(alpha, `${ext}.labels`, { 'bad key': 'v' }),
    want: [keysMessage(`${ext}.labels`)],
  },
  {
    name: 'an externalService annotation key with two slashes',
    input: set(alpha, `${ext}.annotations`, { 'a/b/c': 'v' }),
    want: [keysMessage(`${ext}.annotations`)],
  },
  {
    name: 'a label key whose name part has 64 characters',
    input: set(alpha, `${ext}.labels`, { ['n'.repeat(64)]: 'v' }),
    want: [keysMessage(`${ext}.labels`)],
  },
  {
    name: 'a label key whose prefix has 254 characters',
    input: set(alpha, `${ext}.labels`, { [`${'a'.repeat(254)}/n`]: 'v' }),
    want: [keysMessage(`${ext}.labels`)],
  },
  {
    name: 'an upper-case label key prefix',
    input: set(alpha, `${apps}.labels`, { 'Example.com/n': 'v' }),
    want: [keysMessage(`${apps}.labels`)],
  },
  {
    name: 'an appsIngress.service label value with a space',
    input: set(alpha, `${apps}.labels`, { ok: 'not ok' }),
    want: [valuesMessage(`${apps}.labels`)],
  },
  {
    name: 'a label value ending in a dash',
    input: set(alpha, `${ext}.labels`, { ok: 'v-' }),
    want: [valuesMessage(`${ext}.labels`)],
  },
  {
    name: 'a label value of 64 characters',
    input: set(alpha, `${ext}.labels`, { ok: 'v'.repeat(64) }),
    want: [`${ext}.labels.ok: Too long: may not be more than 63 bytes`],
  },
  {
    name: 'an annotation value of 4,097 characters',
    input: set(alpha, `${ext}.annotations`, { note: 'v'.repeat(4097) }),
    want: [`${ext}.annotations.note: Too long: may not be more than 4096 bytes`],
  },
  {
    name: '33 externalService labels',
    input: set(alpha, `${ext}.labels`, many(33)),
    want: [`${ext}.labels: Too many: 33: must have at most 32 items`],
  },
  {
    name: '33 appsIngress.service annotations',
    input: set(alpha, `${apps}.annotations`, many(33)),
    want: [`${apps}.annotations: Too many: 33: must have at most 32 items`],
  },
];
