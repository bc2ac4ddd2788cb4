// An attachment refused its HostedCluster (no HostedClusterGrant for another namespace, a control-plane namespace
// that is not HyperShift's) is in nothing its Infra writes — no backend, no record, no DHCP VMI namespace, no
// conflict — and its status says why; with a grant it is an ordinary member.
import { attachment, grant, infra, world } from '../../testing/fixtures';
import { planInfra } from './infra-plan';
import type { InfraPlan } from './infra-plan';

const lab = (a: ReturnType<typeof attachment>) => ({ ...a, metadata: { ...a.metadata, namespace: 'lab' } });
const labInfra = { ...infra(), metadata: { ...infra().metadata, namespace: 'lab' } };
// An attachment of namespace lab naming HostedCluster clusters/alpha, with apps ingress.
const intruder = lab(attachment('intruder', { hc: 'alpha', apps: { phase: 'Ready', ip: '198.51.100.205' } }));

function applied<T>(plan: InfraPlan, c: 'dhcp' | 'dns' | 'proxy'): T {
  const p = plan.children[c];
  if (p.action !== 'apply') throw new Error(`${c} not applied`);
  return p.object as T;
}
const backends = (plan: InfraPlan) =>
  (applied<{ spec: { backends?: { name: string }[] } }>(plan, 'proxy').spec.backends ?? []).map(
    (b) => b.name,
  );
const vmiNamespaces = (plan: InfraPlan) =>
  applied<{ spec: { kubevirt?: { namespaces: string[] } } }>(plan, 'dhcp').spec.kubevirt?.namespaces ?? [];
const statusOf = (plan: InfraPlan, name: string) =>
  plan.attachments.find((a) => a.name === name)!.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`);

describe('a refused attachment', () => {
  test('without a grant: no backend, record, VMI namespace or apps blocker lifted; Ready=False ReferenceNotPermitted', () => {
    const plan = planInfra(world(labInfra, { attachments: [intruder] }));
    expect(backends(plan)).toEqual([]);
    expect(vmiNamespaces(plan)).toEqual([]);
    expect(JSON.stringify(applied(plan, 'dns'))).not.toContain('intruder');
    expect(statusOf(plan, 'intruder')).toEqual([
      'Aggregated=False ReferenceNotPermitted',
      'Ready=False ReferenceNotPermitted',
    ]);
    const p = plan.attachments[0]!;
    expect(p.refused?.reason).toBe('ReferenceNotPermitted');
    expect(p.appsBlockers).toHaveLength(1);
    expect(plan.aggregated.conflicts).toEqual([]);
    expect(plan.rangeProblems).toEqual([]);
  });

  test("the owner's Infra: the foreign attachment is no DuplicateHostedCluster, alpha keeps its routes", () => {
    const owner = planInfra(world(infra(), { attachments: [attachment('alpha')], elsewhere: [intruder] }));
    expect(backends(owner)).toHaveLength(5);
    expect(statusOf(owner, 'alpha')).toEqual([
      'Aggregated=True Aggregated',
      'Ready=True ReconciliationSucceeded',
    ]);
  });

  test('with a grant it is a member: its HostedCluster attached to two Infras excludes both', () => {
    const grants = [grant('clusters', ['lab'], ['alpha'])];
    const tenant = planInfra(
      world(labInfra, { attachments: [intruder], grants, elsewhere: [attachment('alpha')] }),
    );
    expect(statusOf(tenant, 'intruder')[0]).toBe('Aggregated=False DuplicateHostedCluster');
    const owner = planInfra(
      world(infra(), { attachments: [attachment('alpha')], elsewhere: [intruder], grants }),
    );
    expect(backends(owner)).toEqual([]);
    const alone = planInfra(world(labInfra, { attachments: [intruder], grants }));
    expect(backends(alone)).toHaveLength(7);
    expect(vmiNamespaces(alone)).toEqual(['clusters-alpha']);
  });

  test("a control-plane namespace that is not HyperShift's: no Role goes there (no VMI namespace), no routes", () => {
    const plan = planInfra(
      world(infra(), {
        attachments: [attachment('alpha'), attachment('bravo', { controlPlaneNamespace: 'kube-system' })],
      }),
    );
    expect(vmiNamespaces(plan)).toEqual(['clusters-alpha']);
    expect(backends(plan).some((b) => b.includes('bravo'))).toBe(false);
    expect(statusOf(plan, 'bravo')).toEqual([
      'Aggregated=False ControlPlaneNamespaceMismatch',
      'Ready=False ControlPlaneNamespaceMismatch',
    ]);
    expect(plan.attachments.map((a) => a.name)).toEqual(['alpha', 'bravo']);
  });
});
