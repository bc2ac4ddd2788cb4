// The attachment limit on the rig's real apiserver: at the limit every attachment routes and the children are
// accepted (inside their CRD maxItems); one past it, the Infra's Ready and the left-out attachment name the limit
// and that attachment, and the ProxyServer keeps every route it had.
import { MAX_ATTACHMENTS_PER_INFRA } from '@oooi/controller';
import { attachment, infra } from './objects';
import {
  User,
  backendNames,
  conditionOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-limits';
const name = (i: number) => `c${String(i).padStart(4, '0')}`;
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const infraNow = () => user.get('Infra', ns, 'vlan100');

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
}, 60_000);

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
}, 60_000);

test(`${MAX_ATTACHMENTS_PER_INFRA} attachments (the limit) all route; the apiserver accepts the children`, async () => {
  for (let i = 0; i < MAX_ATTACHMENTS_PER_INFRA; i++)
    await user.apply('InfraClusterAttachment', attachment(ns, name(i)));
  const p = await until(
    'every attachment routed',
    proxy,
    (o) => backendNames(o).length === MAX_ATTACHMENTS_PER_INFRA * 5,
    120_000,
  );
  expect(backendNames(p)).toContain(`${name(MAX_ATTACHMENTS_PER_INFRA - 1)}-kube-apiserver`);
  const i = await until('Infra Ready', infraNow, (o) => conditionOf(o, 'Ready')?.status === 'True', 60_000);
  expect(conditionOf(i, 'Ready')?.reason).not.toBe('AttachmentLimitExceeded');
}, 240_000);

test('one past it: a condition names the limit and the attachment; existing routes keep serving', async () => {
  const extra = name(MAX_ATTACHMENTS_PER_INFRA);
  await user.apply('InfraClusterAttachment', attachment(ns, extra));
  const i = await until(
    'Infra Ready=False AttachmentLimitExceeded',
    infraNow,
    (o) => conditionOf(o, 'Ready')?.reason === 'AttachmentLimitExceeded',
    60_000,
  );
  expect(conditionOf(i, 'Ready')?.message).toContain(
    `routes at most ${MAX_ATTACHMENTS_PER_INFRA} attachments (docs/limits.md); 1 more were left out: ${extra}`,
  );
  const a = await until(
    'the extra attachment not aggregated',
    () => user.get('InfraClusterAttachment', ns, extra),
    (o) => conditionOf(o, 'Aggregated')?.reason === 'AttachmentLimitExceeded',
  );
  expect(conditionOf(a, 'Aggregated')?.status).toBe('False');
  const p = await proxy();
  expect(backendNames(p)).toHaveLength(MAX_ATTACHMENTS_PER_INFRA * 5);
  expect(backendNames(p).some((b) => b.startsWith(extra))).toBe(false);
}, 120_000);
