// A request body is framed on every method: Node sends no chunked encoding by default for DELETE (nor GET), so a
// DELETE with a body (DeleteOptions) and no Content-Length left the body on the keep-alive connection, where the
// apiserver read it as the next request and answered that one 400. On the real apiserver: a DELETE with
// DeleteOptions, then more requests on the same connection, all answered.
import { KubeClient, type KubeConfigRest } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import { makeNamespace, restFor } from './support';

jest.setTimeout(60_000);

const ns = `kube-framing-${process.pid}`;
let rest: KubeConfigRest;
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  // keep-alive: requests one after another reuse the connection, so the request after the DELETE goes where the
  // DELETE's body went
  rest = await restFor(e2eEnv().kubeconfig, undefined, { keepAlive: true });
  dropNamespace = await makeNamespace(new KubeClient({ rest, fieldManager: 'e2e-framing' }), ns);
});
afterAll(() => dropNamespace());

test('a DELETE with DeleteOptions in its body, then requests on the same connection', async () => {
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  for (let i = 0; i < 3; i++) {
    await rest.request({
      method: 'POST',
      path,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data: { a: 'b' } },
    });
    await rest.request({
      method: 'DELETE',
      path: `${path}/c${i}`,
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Background',
        gracePeriodSeconds: 0,
      },
    });
    const list = await rest.request<{ items: { metadata: { name: string } }[] }>({ method: 'GET', path });
    expect(list.items.map((c) => c.metadata.name).filter((n) => /^c\d$/.test(n))).toEqual([]);
  }
});
