// Two Infras on one VLAN, as planInfra sees them: Ready=False (InfraAddressConflict) on each, naming the other,
// and the component whose own address collides is withheld on each side.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { attachment, grant, infra, world } from '../../testing/fixtures';
import { planInfra } from './infra-plan';
import type { InfraWorld } from './infra-plan';
import { desiredInfraStatus, plannedOutcome } from './infra-status';

const POOL = 'spec.infraComponents.dhcp.rangeStart-rangeEnd';
const NAD = 'same NetworkAttachmentDefinition clusters/vlan100';

const vlan100 = infra();
const vlan200 = (dhcp: { rangeStart: string; rangeEnd: string }, proxyIP = '198.51.100.14'): Infra =>
  infra(
    {
      infraComponents: {
        dhcp: { serverIP: '198.51.100.12', ...dhcp },
        dns: { serverIP: '198.51.100.13' },
        proxy: { serverIP: proxyIP, internalProxyService: '172.30.0.20' },
      },
    },
    'vlan200',
  );
const disjoint = vlan200({ rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' });
const overlapping = vlan200({ rangeStart: '198.51.100.150', rangeEnd: '198.51.100.250' });

function worldOf(self: Infra, other: Infra, attachments: InfraClusterAttachment[] = []): InfraWorld {
  return world(self, { attachments, neighbours: [{ infra: other, attachments }] });
}

function verdict(w: InfraWorld) {
  const plan = planInfra(w);
  const outcomes = {
    dhcp: plannedOutcome(plan.children.dhcp),
    dns: plannedOutcome(plan.children.dns),
    proxy: plannedOutcome(plan.children.proxy),
  };
  const ready = desiredInfraStatus(plan, outcomes, {}).conditions[0]!;
  return {
    ready: `${ready.status} ${ready.reason}: ${ready.message}`,
    applied: (['dhcp', 'dns', 'proxy'] as const).filter((c) => plan.children[c].action === 'apply'),
  };
}

test('overlapping pools on one NAD: both Ready=False naming each other, neither DHCPServer applied', () => {
  expect(verdict(worldOf(vlan100, overlapping))).toEqual({
    ready: `False InfraAddressConflict: DHCPServer vlan100-dhcp is not applied while its address collides with Infra clusters/vlan200: an existing one is left as it is; DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) overlaps DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) of Infra clusters/vlan200 (${NAD})`,
    applied: ['dns', 'proxy'],
  });
  expect(verdict(worldOf(overlapping, vlan100))).toEqual({
    ready: `False InfraAddressConflict: DHCPServer vlan200-dhcp is not applied while its address collides with Infra clusters/vlan100: an existing one is left as it is; DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) overlaps DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (${NAD})`,
    applied: ['dns', 'proxy'],
  });
});

test('a shared proxy serverIP withholds both ProxyServers and nothing else', () => {
  const other = vlan200({ rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' }, '198.51.100.4');
  const v = verdict(worldOf(vlan100, other));
  expect(v.applied).toEqual(['dhcp', 'dns']);
  expect(v.ready).toContain(
    'ProxyServer vlan100-proxy is not applied while its address collides with Infra clusters/vlan200',
  );
  expect(v.ready).toContain(
    `spec.infraComponents.proxy.serverIP 198.51.100.4 is also spec.infraComponents.proxy.serverIP 198.51.100.4 of Infra clusters/vlan200 (${NAD})`,
  );
  expect(verdict(worldOf(other, vlan100)).applied).toEqual(['dhcp', 'dns']);
});

test('disjoint claims on one NAD: both Ready=True, every child applied', () => {
  expect(verdict(worldOf(vlan100, disjoint)).ready).toMatch(/^True /);
  expect(verdict(worldOf(disjoint, vlan100))).toMatchObject({ applied: ['dhcp', 'dns', 'proxy'] });
});

describe("a neighbour's attachments: only its members' MetalLB ranges count", () => {
  const range = { range: '198.51.100.30-198.51.100.39' }; // inside vlan200's pool .20-.99
  test.each([
    { name: 'a member’s range collides', a: attachment('red', { apps: range }), collides: true },
    {
      name: 'a terminating attachment’s range does not',
      a: attachment('red', { apps: range, terminating: true }),
      collides: false,
    },
    {
      name: 'an attachment refused its HostedCluster (another namespace, no grant) does not',
      a: attachment('red', { apps: range, hcNamespace: 'elsewhere' }),
      collides: false,
    },
    {
      name: 'the same attachment admitted by a grant does',
      a: attachment('red', { apps: range, hcNamespace: 'elsewhere' }),
      grants: [grant('elsewhere', ['clusters'])],
      collides: true,
    },
  ])('$name', ({ a, grants, collides }) => {
    // vlan100's attachment, as vlan200 (its neighbour) sees it: vlan200's DHCP pool is the colliding side
    const w: InfraWorld = {
      ...world(disjoint, { neighbours: [{ infra: vlan100, attachments: [a] }] }),
      grants: grants ?? [],
    };
    const v = verdict(w);
    expect(v.applied.includes('dhcp')).toBe(!collides);
    if (collides) {
      expect(v.ready).toContain(
        `DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) overlaps spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.30-198.51.100.39 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
      );
    } else {
      expect(v.ready).toMatch(/^True /);
    }
  });

  test('the Infra whose attachment claims the range is Ready=False too, and keeps its children', () => {
    const red = attachment('red', { apps: range });
    const v = verdict(
      world(vlan100, { attachments: [red], neighbours: [{ infra: disjoint, attachments: [] }] }),
    );
    expect(v.applied).toEqual(['dhcp', 'dns', 'proxy']);
    expect(v.ready).toBe(
      `False InfraAddressConflict: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.30-198.51.100.39 of attachment clusters/red overlaps DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) of Infra clusters/vlan200 (${NAD})`,
    );
  });
});
