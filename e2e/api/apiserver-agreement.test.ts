// The TS validator and a real kube-apiserver (with crds/ applied) agree on every row of the validation tables
// and every broken example: the same set of {field, message} problems, or both accept. Objects are sent with
// dryRun=All and fieldValidation=Strict, and the apiserver's Status causes are compared exactly (the only cause
// allowed besides ours is its note that CEL rules were skipped because the schema already failed).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateObject, API_VERSION, kindInfo } from '@oooi/api';
import type { FieldError } from '@oooi/api';
import {
  acceptCases,
  childRejectCases,
  examples,
  infraRejectCases,
  proxyHaAcceptCases,
  proxyHaRejectCases,
} from '@oooi/api/testing';
import { ApiError, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import type { StatusCause } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';

const namespace = `e2e-agree-${process.pid}`;
const SKIPPED_NOTE = 'some validation rules were not checked because the object was invalid';

type Cause = StatusCause;
type Verdict = { ok: true } | { ok: false; causes: Cause[]; message: string };

let rest: KubeConfigRest;
beforeAll(async () => {
  rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(e2eEnv().kubeconfig) });
  await rest.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: namespace } } });
});
afterAll(async () => {
  await rest.request({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}` });
});

async function admit(obj: Record<string, unknown>): Promise<Verdict> {
  const plural = kindInfo(String(obj.kind))?.plural;
  const body = { ...obj, metadata: { ...(obj.metadata as object), namespace } };
  try {
    await rest.request({
      method: 'POST',
      path: `/apis/${API_VERSION}/namespaces/${namespace}/${plural}`,
      query: { dryRun: 'All', fieldValidation: 'Strict' },
      body,
    });
    return { ok: true };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { ok: false, message: e.status.message ?? '', causes: e.status.details?.causes ?? [] };
  }
}

/** A TS error matches an apiserver cause when the field is the same and the message is the cause's (tail). */
const matches = (e: FieldError, c: Cause): boolean =>
  c.field === e.path &&
  c.message !== undefined &&
  (c.message === e.message || c.message.endsWith(`: ${e.message}`) || c.message.startsWith(e.message));

function expectAgreement(ts: readonly FieldError[], verdict: Verdict): void {
  if (ts.length === 0) {
    expect(verdict).toEqual({ ok: true });
    return;
  }
  expect(verdict.ok).toBe(false);
  if (verdict.ok) return;
  const causes = verdict.causes.filter((c) => !(c.message ?? '').includes(SKIPPED_NOTE));
  if (causes.length === 0) {
    // Strict decoding errors (unknown fields) come as a bare message, without causes.
    expect(ts.map((e) => verdict.message.includes(e.message))).toEqual(ts.map(() => true));
    return;
  }
  const unmatchedTs = ts.filter((e) => !causes.some((c) => matches(e, c)));
  const unmatchedCauses = causes.filter((c) => !ts.some((e) => matches(e, c)));
  expect({ unmatchedTs, unmatchedCauses }).toEqual({ unmatchedTs: [], unmatchedCauses: [] });
}

const ours = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' &&
  input !== null &&
  (input as { apiVersion?: unknown }).apiVersion === API_VERSION;
const rows = [
  ...acceptCases,
  ...infraRejectCases,
  ...childRejectCases,
  ...proxyHaAcceptCases,
  ...proxyHaRejectCases,
].filter((c) => ours(c.input));
const broken = readdirSync(join(examples, 'broken'))
  .filter((f) => f.endsWith('.yaml') && f !== 'expected.yaml')
  .map((file) => ({
    file,
    input: parse(readFileSync(join(examples, 'broken', file), 'utf8')) as Record<string, unknown>,
  }));

test('the tables hold enough rows to mean something', () => {
  expect(rows.length).toBeGreaterThanOrEqual(60);
});

test.each(rows.map((r) => ({ name: r.name, input: r.input as Record<string, unknown> })))(
  'table row "$name": apiserver and TS validator agree',
  async ({ input }) => {
    const offline = validateObject(input);
    expectAgreement(offline.ok ? [] : offline.errors, await admit(input));
  },
);

test.each(broken)('broken example $file: apiserver and TS validator agree', async ({ input }) => {
  const offline = validateObject(input);
  expect(offline.ok).toBe(false);
  expectAgreement(offline.ok ? [] : offline.errors, await admit(input));
});
