import { attachment, infra, world } from '../../testing/fixtures';
import { planInfra } from '../desired/infra-plan';
import { backendsFor } from '../desired/proxy-backends';
import type { MemberView } from './aggregate-infra';
import { appsPortClashes, CONTROL_PLANE_PORTS } from './apps-ports';

const apps = (httpPort: number, httpsPort: number) => ({
  endpoint: '198.51.100.201',
  dnsIP: '198.51.100.201',
  httpPort,
  httpsPort,
});
const rule = 'a port serves HTTP by Host or TLS by SNI, not both';

describe('apps ports: one listener is HTTP by Host or TLS by SNI', () => {
  test.each([
    {
      name: 'two attachments on the same http and https ports (a virtual host and a chain each)',
      input: [
        { name: 'alpha', apps: apps(8080, 8443) },
        { name: 'bravo', apps: apps(8080, 8443) },
      ],
      want: {},
    },
    {
      name: 'defaults 80/443 beside custom ports; an attachment without apps',
      input: [
        { name: 'alpha', apps: apps(80, 443) },
        { name: 'bravo', apps: apps(8080, 6443) },
        { name: 'charlie', apps: undefined },
      ],
      want: {},
    },
    {
      name: 'ports.http on a control-plane TLS port',
      input: [
        { name: 'alpha', apps: apps(443, 8443) },
        { name: 'bravo', apps: apps(6443, 8444) },
      ],
      want: {
        alpha: `apps ingress ports.http 443 is a TLS port of the proxy (the control-plane routes use 443 and 6443): ${rule}`,
        bravo: `apps ingress ports.http 6443 is a TLS port of the proxy (the control-plane routes use 443 and 6443): ${rule}`,
      },
    },
    {
      name: "one attachment's http is another's https: both refused, each naming the other",
      input: [
        { name: 'alpha', apps: apps(8443, 9443) },
        { name: 'bravo', apps: apps(8080, 8443) },
        { name: 'charlie', apps: apps(8080, 8443) },
      ],
      want: {
        alpha: [
          `apps ingress ports.http 8443 is spec.appsIngress.ports.https of attachment bravo: ${rule}`,
          `apps ingress ports.http 8443 is spec.appsIngress.ports.https of attachment charlie: ${rule}`,
        ].join('; '),
        bravo: `apps ingress ports.https 8443 is spec.appsIngress.ports.http of attachment alpha: ${rule}`,
        charlie: `apps ingress ports.https 8443 is spec.appsIngress.ports.http of attachment alpha: ${rule}`,
      },
    },
  ])('$name', ({ input, want }) => {
    expect(Object.fromEntries(appsPortClashes(input))).toEqual(want);
  });

  test('CONTROL_PLANE_PORTS are the ports of every backend but the apps ones', () => {
    const view = {
      target: { name: 'alpha', domain: 'alpha.example.com', controlPlaneNamespace: 'clusters-alpha' },
      apps: apps(8080, 8443),
      sourceRanges: ['198.51.100.20/32'],
    } as unknown as MemberView;
    const ports = backendsFor(view, 'alpha-')
      .filter((b) => !b.name.includes('apps'))
      .map((b) => b.port);
    expect([...new Set(ports)].sort()).toEqual([...CONTROL_PLANE_PORTS].sort());
  });

  test('a clash: no apps backend, no *.apps record, Ready=False naming the other attachment', () => {
    const plan = planInfra(
      world(infra(), {
        attachments: [
          attachment('alpha', { apps: { phase: 'Ready', ip: '198.51.100.201', http: 8443, https: 9443 } }),
          attachment('bravo', {
            apps: {
              phase: 'Ready',
              ip: '198.51.100.211',
              range: '198.51.100.210-198.51.100.219',
              http: 8080,
              https: 8443,
            },
          }),
          attachment('charlie', {
            apps: {
              phase: 'Ready',
              ip: '198.51.100.221',
              range: '198.51.100.220-198.51.100.229',
              http: 8080,
              https: 9444,
            },
          }),
        ],
      }),
    );
    const proxy = plan.children.proxy.action === 'apply' ? plan.children.proxy.object : undefined;
    const dns = plan.children.dns.action === 'apply' ? plan.children.dns.object : undefined;
    const appsBackends = (proxy?.spec.backends ?? []).filter((b) => b.name.includes('apps'));
    expect(appsBackends.map((b) => `${b.name} ${b.port} ${b.protocol ?? 'TCP'}`)).toEqual([
      'charlie-apps-http 8080 HTTP',
      'charlie-apps-https 9444 TCP',
    ]);
    expect(JSON.stringify(dns)).not.toContain('*.apps.alpha');
    expect(JSON.stringify(dns)).not.toContain('*.apps.bravo');
    const ready = (name: string) =>
      plan.attachments.find((p) => p.name === name)!.conditions.find((c) => c.type === 'Ready');
    expect(ready('alpha')).toEqual(
      expect.objectContaining({
        status: 'False',
        reason: 'AppsEndpointRejected',
        message: `apps ingress ports.http 8443 is spec.appsIngress.ports.https of attachment bravo: ${rule}: no *.apps record and no apps backend`,
      }),
    );
    expect(ready('bravo')).toEqual(
      expect.objectContaining({
        reason: 'AppsEndpointRejected',
        message: `apps ingress ports.https 8443 is spec.appsIngress.ports.http of attachment alpha: ${rule}: no *.apps record and no apps backend`,
      }),
    );
  });
});
