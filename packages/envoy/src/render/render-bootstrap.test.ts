import { translateProxyServer } from '../translate/translate-proxy-server';
import { attachmentBackends, shuffled } from '../testing/fixtures';
import { expectGolden } from '@oooi/api/testing';
import { renderAdsBootstrap, renderStaticBootstrap } from './render-bootstrap';

const backends = attachmentBackends({
  name: 'alpha',
  domain: 'alpha.example.test',
  namespace: 'clusters-alpha',
  sources: ['198.51.100.20/32'],
});

describe('bootstrap', () => {
  test('static bootstrap embeds the translated resources', () => {
    expectGolden(
      __dirname,
      'static-bootstrap.json',
      renderStaticBootstrap({ id: 'ns-proxy' }, translateProxyServer({ backends })),
    );
  });
  test('static bootstrap is byte-equal for shuffled input', () => {
    const a = renderStaticBootstrap({ id: 'ns-proxy' }, translateProxyServer({ backends }));
    expect(
      renderStaticBootstrap({ id: 'ns-proxy' }, translateProxyServer({ backends: shuffled(backends) })),
    ).toBe(a);
  });
  test.each([
    { name: 'sotw', delta: false, golden: 'ads-bootstrap.json' },
    { name: 'delta', delta: true, golden: 'ads-bootstrap-delta.json' },
  ])('ADS bootstrap ($name)', ({ delta, golden }) => {
    expectGolden(
      __dirname,
      golden,
      renderAdsBootstrap({ id: 'ns-proxy', xdsAddress: '127.0.0.1', xdsPort: 18000, delta }),
    );
  });
  test('admin is on loopback', () => {
    const doc = JSON.parse(
      renderAdsBootstrap({ id: 'n', xdsAddress: '127.0.0.1', xdsPort: 1, adminPort: 9902 }),
    );
    expect(doc.admin.address.socketAddress).toEqual({ address: '127.0.0.1', portValue: 9902 });
  });
});
