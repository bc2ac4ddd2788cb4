import { hostedEndpoint } from './hosted-endpoint';

describe('hostedEndpoint', () => {
  test.each([
    {
      name: 'the public API name and port',
      server: 'https://api.c1.example.com:6443',
      want: {
        server: 'https://kube-apiserver.clusters-c1.svc.cluster.local:6443',
        tlsServerName: 'api.c1.example.com',
      },
    },
    {
      name: 'no port: 443',
      server: 'https://api.c1.example.com',
      want: {
        server: 'https://kube-apiserver.clusters-c1.svc.cluster.local:443',
        tlsServerName: 'api.c1.example.com',
      },
    },
    {
      name: 'an address: verified against the address',
      server: 'https://192.0.2.10:31000/',
      want: {
        server: 'https://kube-apiserver.clusters-c1.svc.cluster.local:31000',
        tlsServerName: '192.0.2.10',
      },
    },
  ])('$name', ({ server, want }) => {
    expect(hostedEndpoint(server, 'kube-apiserver', 'clusters-c1')).toEqual({ ok: true, endpoint: want });
  });
  test.each([
    { name: 'not a URL', server: 'no scheme here', wantError: 'is not a URL' },
    { name: 'plain http', server: 'http://api.c1.example.com', wantError: 'is not https' },
  ])('refuses $name', ({ server, wantError }) => {
    const r = hostedEndpoint(server, 'kube-apiserver', 'clusters-c1');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain(wantError);
  });
});
