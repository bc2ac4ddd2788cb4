// Real Envoy with a static bootstrap passing TLS through by SNI to two `openssl s_server` backends: each
// name reaches its own certificate; an unknown name is reset (and counted as no_filter_chain_match).
import { get } from 'node:http';
import { connect } from 'node:tls';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2eEnv, freePorts, openNetScope, rigBin, runOk, waitFor, type NetScope } from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { timeout: 2_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Connects with SNI NAME; resolves with the CN of the certificate presented, or the error text. */
function tlsPeer(port: number, name: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({
      host: '127.0.0.1',
      port,
      servername: name,
      rejectUnauthorized: false,
      timeout: 5_000,
    });
    s.on('secureConnect', () => {
      const cn = s.getPeerCertificate().subject?.CN;
      s.destroy();
      resolve(`CN=${String(cn)}`);
    });
    s.on('timeout', () => s.destroy(new Error('timeout')));
    s.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
  });
}

function cluster(name: string, port: number): object {
  const addr = { socket_address: { address: '127.0.0.1', port_value: port } };
  return {
    name,
    type: 'STATIC',
    connect_timeout: '1s',
    load_assignment: { cluster_name: name, endpoints: [{ lb_endpoints: [{ endpoint: { address: addr } }] }] },
  };
}

function chain(sni: string, clusterName: string): object {
  return {
    filter_chain_match: { server_names: [sni] },
    filters: [
      {
        name: 'envoy.filters.network.tcp_proxy',
        typed_config: {
          '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy',
          stat_prefix: clusterName,
          cluster: clusterName,
        },
      },
    ],
  };
}

describe('Envoy SNI passthrough', () => {
  let scope: NetScope | undefined;
  afterAll(async () => scope?.dispose());

  it('sends each SNI to its own backend and resets an unknown one', async () => {
    scope = openNetScope(e2eEnv().rig);
    const dir = scope.dir;
    const openssl = await rigBin('openssl');
    const [listen, admin, pa, pb] = await freePorts(4);
    const backends = [
      { name: 'a.example.test', port: pa! },
      { name: 'b.example.test', port: pb! },
    ];
    for (const b of backends) {
      await runOk([
        openssl, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
        '-subj', `/CN=${b.name}`, '-keyout', join(dir, `${b.name}.key`), '-out', join(dir, `${b.name}.crt`),
      ]); // prettier-ignore
      scope.spawn(
        [openssl, 's_server', '-accept', `127.0.0.1:${b.port}`, '-cert', join(dir, `${b.name}.crt`),
          '-key', join(dir, `${b.name}.key`), '-www'], // prettier-ignore
        { label: `backend-${b.name}` },
      );
    }
    const bootstrap = {
      admin: { address: { socket_address: { address: '127.0.0.1', port_value: admin } } },
      static_resources: {
        listeners: [
          {
            name: 'sni',
            address: { socket_address: { address: '127.0.0.1', port_value: listen } },
            listener_filters: [
              {
                name: 'envoy.filters.listener.tls_inspector',
                typed_config: {
                  '@type':
                    'type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector',
                },
              },
            ],
            filter_chains: [chain('a.example.test', 'a'), chain('b.example.test', 'b')],
          },
        ],
        clusters: [cluster('a', pa!), cluster('b', pb!)],
      },
    };
    const conf = join(dir, 'envoy.yaml');
    await writeFile(conf, JSON.stringify(bootstrap, null, 2));
    const envoy = scope.spawn(
      [await rigBin('envoy'), '-c', conf, '--disable-hot-restart', '--concurrency', '1', '-l', 'warn'],
      { label: 'envoy' },
    );
    await waitFor(
      'Envoy ready',
      async () => {
        if (!envoy.alive()) throw new Error(`envoy exited:\n${envoy.log()}`);
        return (await httpGet(`http://127.0.0.1:${admin}/ready`).catch(() => ({ status: 0 }))).status === 200;
      },
      { timeoutMs: 15_000, everyMs: 100 },
    );
    for (const b of backends) {
      await waitFor(`backend ${b.name}`, async () => (await tlsPeer(b.port, b.name)) === `CN=${b.name}`, {
        timeoutMs: 10_000,
      });
    }

    expect(await tlsPeer(listen!, 'a.example.test')).toBe('CN=a.example.test');
    expect(await tlsPeer(listen!, 'b.example.test')).toBe('CN=b.example.test');
    expect(await tlsPeer(listen!, 'unknown.example.test')).toMatch(/^error /);
    const stats = await httpGet(`http://127.0.0.1:${admin}/stats?filter=no_filter_chain_match`);
    expect(stats.body).toMatch(
      new RegExp(`listener\\.127\\.0\\.0\\.1_${listen}\\.no_filter_chain_match: [1-9]`),
    );
  });
});
