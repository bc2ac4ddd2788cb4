import { loadKubeConfigText } from './kubeconfig-text';

function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://api.c1.example.com:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
}

const embedded = kubeconfig(
  { 'certificate-authority-data': 'Q0E=' },
  { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' },
);

describe('loadKubeConfigText', () => {
  test.each([
    {
      name: 'as it is',
      options: {},
      want: { server: 'https://api.c1.example.com:6443', tlsServerName: undefined },
    },
    {
      name: 'server rewritten, TLS server name kept on the original host',
      options: {
        embeddedOnly: true,
        rewriteServer: (s: string) => ({
          server: 'https://kube-apiserver.ns.svc.cluster.local:6443',
          tlsServerName: new URL(s).hostname,
        }),
      },
      want: {
        server: 'https://kube-apiserver.ns.svc.cluster.local:6443',
        tlsServerName: 'api.c1.example.com',
      },
    },
  ])('$name', async ({ options, want }) => {
    const kc = await loadKubeConfigText(embedded, options);
    const c = kc.getCurrentCluster();
    expect({ server: c?.server, tlsServerName: c?.tlsServerName }).toEqual(want);
    expect(kc.getCurrentUser()?.certData).toBe('Q0VSVA==');
    expect(c?.caData).toBe('Q0E=');
  });

  test.each([
    { name: 'not a kubeconfig', text: 'a: [', wantError: 'does not parse' },
    {
      name: 'a CA file',
      text: kubeconfig({ 'certificate-authority': '/etc/passwd' }, { token: 't' }),
      wantError: 'certificate-authority is a file path',
    },
    {
      name: 'skip TLS verify',
      text: kubeconfig({ 'insecure-skip-tls-verify': true }, { token: 't' }),
      wantError: 'insecure-skip-tls-verify',
    },
    {
      name: 'a proxy',
      text: kubeconfig({ 'proxy-url': 'http://evil:3128' }, { token: 't' }),
      wantError: 'proxy-url',
    },
    {
      name: 'an exec plugin',
      text: kubeconfig({}, { exec: { command: 'sh', apiVersion: 'client.authentication.k8s.io/v1' } }),
      wantError: 'exec plugin',
    },
    {
      name: 'key files',
      text: kubeconfig({}, { 'client-certificate': '/c', 'client-key': '/k' }),
      wantError: 'client-certificate is a file path, user client-key is a file path',
    },
    {
      name: 'no current context',
      text: JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] }),
      wantError: 'no current cluster',
    },
  ])('refuses $name', async ({ text, wantError }) => {
    await expect(loadKubeConfigText(text, { embeddedOnly: true })).rejects.toThrow(wantError);
  });

  test('a file path is accepted when not embedded-only (the caller trusts the text)', async () => {
    const text = kubeconfig({ 'certificate-authority': '/ca.crt' }, { token: 't' });
    await expect(loadKubeConfigText(text)).resolves.toBeDefined();
  });
});
