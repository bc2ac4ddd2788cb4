// The README's first command, proven: the sandbox (sandbox.ts) runs the chart's operator and the three workloads
// as real processes, and its VM gets a lease from the examples' pool, an answer for api.alpha.example.com from the
// VLAN view (the proxy's VLAN address), and a TLS handshake through Envoy with alpha's API server stand-in.
import { e2eEnv } from '@oooi/rig';
import { runSandbox, type SandboxResult } from './sandbox';

jest.setTimeout(600_000);

test('a VM on the VLAN gets a lease, a DNS answer and a TLS connection to its control plane', async () => {
  const lines: string[] = [];
  const progress: string[] = [];
  const result: SandboxResult = await runSandbox({
    name: `${e2eEnv().rig}-sandbox`,
    say: (l) => void lines.push(l),
    progress: (l) => void progress.push(l),
  }).catch((err: unknown) => {
    // what the sandbox showed and its progress lines, so a failure here says where it stopped
    throw new Error(`${String(err)}\n${[...lines, ...progress].slice(-60).join('\n')}`, { cause: err });
  });
  const last = Number(result.lease.ip.split('.')[3]);
  expect(result.lease.ip.startsWith('198.51.100.')).toBe(true);
  expect(last).toBeGreaterThanOrEqual(100);
  expect(last).toBeLessThanOrEqual(199);
  expect(result.lease).toMatchObject({ router: '198.51.100.1', dns: '198.51.100.3' });
  expect(result.dns).toEqual({
    name: 'api.alpha.example.com',
    server: '198.51.100.3',
    answers: ['198.51.100.4'],
  });
  expect(result.tls).toEqual({
    sni: 'api.alpha.example.com',
    address: '198.51.100.4',
    peer: 'kube-apiserver.alpha.stand-in',
  });
  const text = lines.join('\n');
  expect(text).toContain('helm install oooi charts/oooi');
  expect(text).toMatch(/vlan100 +True/);
});
