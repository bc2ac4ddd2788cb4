import { attachment, infra, world } from '../../testing/fixtures';
import { planInfra } from '../desired/infra-plan';
import { appsEndpointOf } from './apps-ingress';

const ctx = { cidr: '198.51.100.0/24', otherDomains: ['bravo.example.com'] };
const ready = (apps: { ip?: string; hostname?: string; range?: string }) =>
  attachment('alpha', { apps: { phase: 'Ready', ...apps } });

describe('the apps endpoint is accepted only where the attachment may point', () => {
  test.each([
    { name: 'an IP inside the MetalLB range', apps: { ip: '198.51.100.203' }, ok: true },
    { name: 'a plain LB host name', apps: { hostname: 'lb-1.elb.example.net' }, ok: true },
    {
      name: 'a management ClusterIP',
      apps: { ip: '10.96.0.10' },
      why: 'apps ingress externalIP 10.96.0.10 is outside spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.200-198.51.100.209',
    },
    {
      name: 'a VLAN address outside the range (another tenant, the gateway)',
      apps: { ip: '198.51.100.1' },
      why: 'apps ingress externalIP 198.51.100.1 is outside spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.200-198.51.100.209',
    },
    {
      name: "a name inside another attachment's domain",
      apps: { hostname: 'api.bravo.example.com' },
      why: 'apps ingress externalHostname api.bravo.example.com is inside domain bravo.example.com of another attachment',
    },
    {
      name: 'a management Service name',
      apps: { hostname: 'kube-apiserver.clusters-alpha.svc.cluster.local' },
      why: "apps ingress externalHostname kube-apiserver.clusters-alpha.svc.cluster.local is inside the cluster's service domain cluster.local",
    },
    {
      name: 'localhost',
      apps: { hostname: 'ingress.localhost' },
      why: "apps ingress externalHostname ingress.localhost is the proxy pod's own loopback",
    },
    {
      name: 'a name a resolver reads as an address',
      apps: { hostname: '0x7f.1' },
      why: 'apps ingress externalHostname 0x7f.1 has a last label that does not start with a letter',
    },
    {
      name: 'not a host name',
      apps: { hostname: 'a b\n}' },
      why: 'apps ingress externalHostname "a b\\n}" is not a lower-case host name',
    },
  ])('$name', ({ apps, ok, why }) => {
    const v = appsEndpointOf(ready(apps), ctx);
    if (ok)
      expect(v).toMatchObject({ rejected: undefined, endpoint: { endpoint: apps.ip ?? apps.hostname } });
    else expect(v).toEqual({ endpoint: undefined, rejected: why });
  });

  test('a refused endpoint: no *.apps record, no apps backend, Ready=False naming the address', () => {
    const i = infra();
    const a = ready({ ip: '10.96.0.10' });
    const plan = planInfra(world(i, { attachments: [a, attachment('bravo')] }));
    const dns = plan.children.dns.action === 'apply' ? plan.children.dns.object : undefined;
    const proxy = plan.children.proxy.action === 'apply' ? plan.children.proxy.object : undefined;
    expect(JSON.stringify(dns)).not.toContain('*.apps.alpha');
    expect(JSON.stringify(proxy)).not.toContain('10.96.0.10');
    const status = plan.attachments.find((p) => p.name === 'alpha')!;
    expect(status.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'AppsEndpointRejected',
      message: expect.stringContaining('10.96.0.10') as string,
    });
  });

  // without a MetalLB range the Infra's CIDR bounds the VIP; its static addresses are still not one: the proxy's own
  // serverIP is a target oooi-xds refuses (one such status would stop the whole routing table)
  test.each([
    ['198.51.100.4', 'spec.infraComponents.proxy.serverIP'],
    ['198.51.100.3', 'spec.infraComponents.dns.serverIP'],
    ['198.51.100.2', 'spec.infraComponents.dhcp.serverIP'],
    ['198.51.100.1', 'spec.networkConfig.gateway'],
  ])('no MetalLB range: an externalIP at %s (%s) is refused, a free VLAN address accepted', (ip, field) => {
    const plan = planInfra(world(infra(), { attachments: [ready({ ip, range: '' }), attachment('bravo')] }));
    const proxy = plan.children.proxy.action === 'apply' ? plan.children.proxy.object : undefined;
    expect((proxy?.spec.backends ?? []).map((b) => b.targetService)).not.toContain(ip);
    expect(
      plan.attachments.find((p) => p.name === 'alpha')!.conditions.find((c) => c.type === 'Ready'),
    ).toMatchObject({
      status: 'False',
      reason: 'AppsEndpointRejected',
      message: `apps ingress externalIP ${ip} is the Infra's ${field}: no *.apps record and no apps backend`,
    });
    const free = planInfra(world(infra(), { attachments: [ready({ ip: '198.51.100.250', range: '' })] }));
    const freeProxy = free.children.proxy.action === 'apply' ? free.children.proxy.object : undefined;
    expect((freeProxy?.spec.backends ?? []).map((b) => b.targetService)).toContain('198.51.100.250');
  });
});
