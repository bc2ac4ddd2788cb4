// An attachment whose control-plane namespace does not exist keeps its claims (conflicts, its MetalLB range out of
// the DHCP pool, its DHCP VMI namespace) but gets no backend and no record until the namespace exists; its status
// says ControlPlaneNamespaceNotFound, naming the namespace, and apps ingress is blocked meanwhile.
import { attachment, infra, world } from '../../testing/fixtures';
import { planInfra } from './infra-plan';
import type { InfraPlan } from './infra-plan';

function applied<T>(plan: InfraPlan, c: 'dhcp' | 'dns' | 'proxy'): T {
  const p = plan.children[c];
  if (p.action !== 'apply') throw new Error(`${c} not applied`);
  return p.object as T;
}
const backends = (plan: InfraPlan) =>
  (applied<{ spec: { backends?: { name: string }[] } }>(plan, 'proxy').spec.backends ?? []).map(
    (b) => b.name,
  );
const dhcpSpec = (plan: InfraPlan) =>
  applied<{ spec: { kubevirt?: { namespaces: string[] }; leaseConfig: { excluded?: string[] } } }>(
    plan,
    'dhcp',
  ).spec;
const statusOf = (plan: InfraPlan, name: string) =>
  plan.attachments.find((a) => a.name === name)!.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`);

const bravoApps = attachment('bravo', {
  apps: { phase: 'Ready', ip: '198.51.100.205', range: '198.51.100.200-198.51.100.209' },
});

describe('a missing control-plane namespace', () => {
  test('no backend or record for it, the other attachment keeps its own; Ready=False naming the namespace', () => {
    const plan = planInfra(
      world(infra(), {
        attachments: [attachment('alpha'), bravoApps],
        missingNamespaces: ['clusters-bravo'],
      }),
    );
    expect(backends(plan).filter((b) => b.startsWith('bravo-'))).toEqual([]);
    expect(backends(plan).filter((b) => b.startsWith('alpha-')).length).toBeGreaterThan(0);
    expect(JSON.stringify(applied(plan, 'dns'))).not.toContain('bravo.example.com');
    expect(JSON.stringify(applied(plan, 'dns'))).toContain('alpha.example.com');
    expect(statusOf(plan, 'bravo')).toEqual([
      'Aggregated=False ControlPlaneNamespaceNotFound',
      'Ready=False ControlPlaneNamespaceNotFound',
    ]);
    const p = plan.attachments.find((a) => a.name === 'bravo')!;
    expect(p.conditions[1]!.message).toBe(
      `control-plane namespace "clusters-bravo" of HostedCluster clusters/bravo does not exist: the attachment's routes and DNS records wait until it does`,
    );
    expect(p.appsBlockers).toEqual([p.conditions[1]!.message]);
    expect(statusOf(plan, 'alpha')).toEqual([
      'Aggregated=True Aggregated',
      'Ready=True ReconciliationSucceeded',
    ]);
    expect(plan.aggregated.waiting.map((w) => w.namespace)).toEqual(['clusters-bravo']);
  });

  test('its claims stand: DHCP VMI namespace (the Role waits there) and MetalLB range kept, conflicts still count', () => {
    const plan = planInfra(
      world(infra(), {
        attachments: [attachment('alpha'), bravoApps],
        missingNamespaces: ['clusters-bravo'],
      }),
    );
    expect(dhcpSpec(plan).kubevirt?.namespaces).toEqual(['clusters-alpha', 'clusters-bravo']);
    expect(dhcpSpec(plan).leaseConfig.excluded).toContain('198.51.100.200-198.51.100.209');
    const dup = planInfra(
      world(infra(), {
        attachments: [attachment('alpha'), attachment('bravo', { clusterName: 'alpha' })],
        missingNamespaces: ['clusters-bravo'],
      }),
    );
    // A conflict is reported first: it is what the user must fix; alpha does not route past a waiting duplicate.
    expect(statusOf(dup, 'bravo')[0]).toBe('Aggregated=False DuplicateHostname');
    expect(statusOf(dup, 'alpha')[0]).toBe('Aggregated=False DuplicateHostname');
    expect(backends(dup)).toEqual([]);
  });

  test('once it exists the plan is the ordinary one (and absent means none is missing: oooi render, validate)', () => {
    const attachments = [attachment('alpha'), bravoApps];
    const now = planInfra(world(infra(), { attachments, missingNamespaces: [] }));
    const offline = planInfra(world(infra(), { attachments }));
    expect(backends(now).filter((b) => b.startsWith('bravo-')).length).toBeGreaterThan(0);
    expect(statusOf(now, 'bravo')[0]).toBe('Aggregated=True Aggregated');
    expect(JSON.stringify(offline.children)).toBe(JSON.stringify(now.children));
  });

  test("another attachment's missing namespace does not touch one whose namespace exists", () => {
    const plan = planInfra(
      world(infra(), { attachments: [attachment('alpha')], missingNamespaces: ['clusters-bravo'] }),
    );
    expect(statusOf(plan, 'alpha')[0]).toBe('Aggregated=True Aggregated');
  });
});
