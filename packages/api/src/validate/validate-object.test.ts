import { validateObject } from './validate-object';
import { alpha, dhcp, dns, errorsOf, infra, proxy, set } from '../testing/fixtures';

describe('validateObject accepts', () => {
  test.each([
    { name: 'the example Infra', input: infra },
    { name: 'the example attachment', input: alpha },
    { name: 'the standalone DHCPServer', input: dhcp },
    { name: 'a ProxyServer', input: proxy },
    { name: 'a ProxyServer with no backends', input: set(proxy, 'spec.backends', []) },
    { name: 'a DNSServer with no records', input: dns },
    { name: 'an Infra with only its network', input: set(infra, 'spec.infraComponents', undefined) },
    {
      name: 'an Infra with a disabled DHCP and no pool',
      input: set(
        set(
          set(infra, 'spec.infraComponents.dhcp.rangeStart', undefined),
          'spec.infraComponents.dhcp.rangeEnd',
          undefined,
        ),
        'spec.infraComponents.dhcp.enabled',
        false,
      ),
    },
    {
      name: 'a MetalLB range given as a CIDR',
      input: set(alpha, 'spec.appsIngress.metallb.ipAddressPoolRange', '198.51.100.208/29'),
    },
    { name: 'a 1h30m lease', input: set(infra, 'spec.infraComponents.dhcp.leaseTime', '1h30m') },
    {
      name: 'a wildcard record',
      input: set(dns, 'spec.views.vlan.records', [{ name: '*.apps.c.example.com', ip: '198.51.100.200' }]),
    },
  ])('$name', ({ input }) => expect(errorsOf(input)).toEqual([]));

  test('defaults are applied as the apiserver applies them', () => {
    const r = validateObject(set(infra, 'spec.infraComponents', {}));
    expect(r.ok && r.value.kind === 'Infra' && r.value.spec.infraComponents).toEqual({
      dhcp: { enabled: true, leaseTime: '1h' },
      dns: { enabled: true },
      proxy: { enabled: true },
    });
  });
});
