import { attachment } from '../../testing/fixtures';
import { appsIngressNames } from './apps-ingress-objects';
import type { AppliedIdentities } from './apps-ingress-objects';
import { defaultAppsIngressTimings, nextAppsStep } from './apps-ingress-phase';
import type { AppsDecisionInput, AppsFacts, AppsOutcome, AppsStep } from './apps-ingress-phase';
import { appsIngressStatusOf } from './apps-ingress-status';

const names = appsIngressNames(attachment('c1', { apps: {} }))!;
const ok = <T>(value: T) => ({ ok: true as const, value });
const fail = (error: string) => ({ ok: false as const, error });
const previous: AppliedIdentities = {
  appliedAddressPoolName: 'old-pool',
  appliedL2AdvertisementName: 'advertise-old-pool',
  appliedServiceName: 'oooi-ingress',
  appliedServiceNamespace: 'openshift-ingress',
};
const newPool = { appliedAddressPoolName: 'c1-apps', appliedL2AdvertisementName: 'advertise-c1-apps' };
const all: AppsFacts = {
  access: ok(true as const),
  readyNodes: ok(1),
  staleDeleted: ok(true as const),
  metallb: ok([]),
  service: ok(true as const),
  endpoint: ok({ ip: '198.51.100.201' }),
};

/** Runs the decision as the shell does: each step asked for is answered from FACTS (a missing answer fails). */
function walk(input: AppsDecisionInput, facts: AppsFacts): { steps: AppsStep[]; outcome: AppsOutcome } {
  let seen: AppsFacts = {};
  const steps: AppsStep[] = [];
  for (;;) {
    const d = nextAppsStep(input, seen);
    if ('outcome' in d) return { steps, outcome: d.outcome };
    const key = {
      access: 'access',
      nodes: 'readyNodes',
      stale: 'staleDeleted',
      metallb: 'metallb',
      service: 'service',
      endpoint: 'endpoint',
    }[d.step] as keyof AppsFacts;
    if (facts[key] === undefined) throw new Error(`step ${d.step} asked for but not scripted`);
    if (steps.includes(d.step)) throw new Error(`step ${d.step} asked for twice`);
    steps.push(d.step);
    seen = { ...seen, [key]: facts[key] };
  }
}

const input = (more: Partial<AppsDecisionInput> = {}): AppsDecisionInput => ({
  names,
  blocked: undefined,
  previous,
  timings: defaultAppsIngressTimings,
  ...more,
});

interface Row {
  name: string;
  input?: Partial<AppsDecisionInput>;
  facts: AppsFacts;
  steps: AppsStep[];
  want: Partial<AppsOutcome>;
}

describe('nextAppsStep: the reference phases, reasons and requeues', () => {
  test.each<Row>([
    {
      name: 'Ready with an IP, re-checked in 5 minutes',
      facts: all,
      steps: ['access', 'nodes', 'stale', 'metallb', 'service', 'endpoint'],
      want: {
        phase: 'Ready',
        reason: 'ReconciliationSucceeded',
        message: 'Apps ingress ready with external endpoint 198.51.100.201',
        externalIP: '198.51.100.201',
        applied: {
          ...newPool,
          appliedServiceName: 'oooi-ingress',
          appliedServiceNamespace: 'openshift-ingress',
        },
        requeueMs: 300_000,
      },
    },
    {
      name: 'Ready with a hostname only',
      facts: { ...all, endpoint: ok({ hostname: 'lb.example.net' }) },
      steps: ['access', 'nodes', 'stale', 'metallb', 'service', 'endpoint'],
      want: { phase: 'Ready', externalHostname: 'lb.example.net', externalIP: undefined },
    },
    {
      name: 'Pending: no address yet (15 s)',
      facts: { ...all, endpoint: ok(undefined) },
      steps: ['access', 'nodes', 'stale', 'metallb', 'service', 'endpoint'],
      want: { phase: 'Pending', reason: 'WaitingForExternalIP', requeueMs: 15_000, externalIP: undefined },
    },
    {
      name: 'Degraded: reading the address failed (15 s)',
      facts: { ...all, endpoint: fail('boom') },
      steps: ['access', 'nodes', 'stale', 'metallb', 'service', 'endpoint'],
      want: { phase: 'Degraded', reason: 'ExternalIPDiscoveryFailed', requeueMs: 15_000 },
    },
    {
      name: 'Pending: no Ready node, nothing written, old identities kept',
      facts: { ...all, readyNodes: ok(0) },
      steps: ['access', 'nodes'],
      want: {
        phase: 'Pending',
        reason: 'WaitingForHostedClusterNodes',
        requeueMs: 30_000,
        applied: previous,
      },
    },
    {
      name: 'Pending: the MetalLB CRDs are not served',
      facts: { ...all, metallb: ok(['ipaddresspools', 'l2advertisements', 'metallbs']) },
      steps: ['access', 'nodes', 'stale', 'metallb'],
      want: {
        phase: 'Pending',
        reason: 'WaitingForMetalLBCRDs',
        message:
          'waiting for the MetalLB CRDs in the hosted cluster (not served: ipaddresspools, l2advertisements, metallbs)',
        applied: previous,
      },
    },
    {
      name: 'Degraded: a MetalLB apply failed; the attempted pool is recorded',
      facts: { ...all, metallb: fail('422') },
      steps: ['access', 'nodes', 'stale', 'metallb'],
      want: { phase: 'Degraded', reason: 'MetalLBInstallFailed', applied: { ...previous, ...newPool } },
    },
    {
      name: 'Degraded: the old objects could not be deleted; nothing new applied',
      facts: { ...all, staleDeleted: fail('403') },
      steps: ['access', 'nodes', 'stale'],
      want: { phase: 'Degraded', reason: 'MetalLBInstallFailed', applied: previous },
    },
    {
      name: 'Degraded: the ingress Service failed',
      facts: { ...all, service: fail('422') },
      steps: ['access', 'nodes', 'stale', 'metallb', 'service'],
      want: { phase: 'Degraded', reason: 'IngressServiceFailed', requeueMs: 30_000 },
    },
    {
      name: 'Degraded: listing nodes failed',
      facts: { ...all, readyNodes: fail('403') },
      steps: ['access', 'nodes'],
      want: { phase: 'Degraded', reason: 'HostedClusterNodeListFailed' },
    },
    {
      name: 'Degraded: no client (bad kubeconfig)',
      facts: { access: fail('kubeconfig refused: user exec plugin') },
      steps: ['access'],
      want: {
        phase: 'Degraded',
        reason: 'HostedClusterAccessFailed',
        message: 'building a client for the hosted cluster failed: kubeconfig refused: user exec plugin',
      },
    },
    {
      name: 'Degraded: invalid configuration, the hosted cluster is not contacted',
      input: { names: undefined },
      facts: {},
      steps: [],
      want: {
        phase: 'Degraded',
        reason: 'InvalidConfiguration',
        message: 'appsIngress requires metallb.addressPoolName and metallb.ipAddressPoolRange',
      },
    },
    {
      name: 'Degraded: blocked by a conflict, the hosted cluster is not contacted',
      input: { blocked: 'attachment "c1" is excluded from routing (DuplicateHostedCluster)' },
      facts: {},
      steps: [],
      want: { phase: 'Degraded', reason: 'InvalidConfiguration', applied: previous },
    },
  ])('$name', ({ input: more, facts, steps, want }) => {
    const got = walk(input(more), facts);
    expect(got.steps).toEqual(steps);
    const defined = Object.fromEntries(Object.entries(want).filter(([, v]) => v !== undefined));
    expect(got.outcome).toMatchObject(defined);
    // A non-Ready outcome carries no endpoint, so the *.apps records and backends go at once.
    if ('externalIP' in want) expect(got.outcome.externalIP).toBe(want.externalIP);
  });
});

describe('appsIngressStatusOf', () => {
  const o = walk(input(), all).outcome;
  test.each([
    { name: 'first write takes now', previous: undefined, want: '2030-01-01T00:00:10Z' },
    {
      name: 'unchanged keeps the previous time',
      previous: appsIngressStatusOf(o, undefined, '2030-01-01T00:00:00Z'),
      want: '2030-01-01T00:00:00Z',
    },
    {
      name: 'a changed field moves it',
      previous: {
        ...appsIngressStatusOf(o, undefined, '2030-01-01T00:00:00Z'),
        externalIP: '198.51.100.202',
      },
      want: '2030-01-01T00:00:10Z',
    },
  ])('$name', ({ previous: prev, want }) => {
    expect(appsIngressStatusOf(o, prev, '2030-01-01T00:00:10Z').lastSyncTime).toBe(want);
  });
});
