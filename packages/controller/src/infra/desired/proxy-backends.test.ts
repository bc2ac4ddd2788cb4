import { backendPrefixes, proxyBackends } from './proxy-backends';
import { view } from '../../testing/views';
import { expectGolden } from '@oooi/api/testing';
import { shuffled } from '../../testing/fixtures';
import { toYaml } from '../../offline/render/yaml-text';

describe('proxyBackends', () => {
  test.each([
    { name: 'control plane only', views: [view('alpha')], golden: 'backends-control-plane.yaml' },
    {
      name: 'apps on custom ports and source-scoped aliases',
      views: [
        view('alpha', {
          controlPlaneNamespace: 'cp-alpha',
          appsAt: { endpoint: '198.51.100.201', httpPort: 8080, httpsPort: 8443 },
          sources: ['198.51.100.9/32', '198.51.100.20/32'],
        }),
        view('bravo', { appsAt: { endpoint: 'router.bravo.example.net', dnsIP: undefined } }),
      ],
      golden: 'backends-apps-and-aliases.yaml',
    },
    { name: 'no attachments: no backends', views: [], golden: 'backends-none.yaml' },
  ])('$name', ({ views, golden: file }) => {
    const text = toYaml(proxyBackends(views));
    expectGolden(__dirname, file, text);
    expect(toYaml(proxyBackends(shuffled(views)))).toBe(text);
  });
});

describe('backendPrefixes', () => {
  const long = 'a-very-long-attachment-name-that-goes-on-and-on-forever';
  test.each([
    { name: 'the name plus a dash', names: ['alpha'], want: ['alpha-'] },
    { name: 'dots and upper case become dashes', names: ['Alpha.Two'], want: ['alpha-two-'] },
    {
      name: 'cut to 39 characters, trailing dashes trimmed',
      names: [long],
      want: [`${long.slice(0, 39).replace(/-+$/, '')}-`],
    },
    {
      name: 'colliding prefixes both get a hash',
      names: ['a.b', 'a-b'],
      want: [/^a-b-[0-9a-z]{6}-$/, /^a-b-[0-9a-z]{6}-$/],
    },
  ])('$name', ({ names, want }) => {
    const got = backendPrefixes(names);
    names.forEach((n, i) => {
      const p = got.get(n)!;
      expect(p).toMatch(
        want[i] instanceof RegExp ? want[i] : new RegExp(`^${String(want[i]).replace(/[.*]/g, '\\$&')}$`),
      );
      expect(`${p}kube-apiserver-internal`.length).toBeLessThanOrEqual(63);
    });
    expect(new Set(got.values()).size).toBe(names.length);
  });
});
