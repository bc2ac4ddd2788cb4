import { parseConfigSyncCommand } from './config-sync-command';

const base = ['--namespace', 'clusters', '--configmap', 'vlan100-dns-config', '--dir', '/etc/coredns'];

describe('parseConfigSyncCommand', () => {
  test.each([
    {
      name: "the Deployment's arguments",
      argv: [...base, '--reload-pidfile', '/run/coredns/coredns.pid', '--health-address', '203.0.113.5:8090'],
      env: {},
      want: {
        kubeconfig: undefined,
        namespace: 'clusters',
        name: 'vlan100-dns-config',
        dir: '/etc/coredns',
        reload: { pidFile: '/run/coredns/coredns.pid', processName: 'coredns' },
        health: { host: '203.0.113.5', port: 8090 },
        logLevel: 'info',
      },
    },
    {
      name: 'no pidfile: no signal; $KUBECONFIG',
      argv: base,
      env: { KUBECONFIG: '/k/config' },
      want: { kubeconfig: '/k/config', reload: undefined, health: { host: '127.0.0.1', port: 8090 } },
    },
  ])('$name', ({ argv, env, want }) => {
    const r = parseConfigSyncCommand(argv, env);
    expect(r.ok && r.config).toMatchObject(want);
  });

  test.each([
    {
      name: 'no ConfigMap',
      argv: ['--namespace', 'n', '--dir', '/d'],
      wantError: "'--configmap <name>' not specified",
    },
    {
      name: 'health off',
      argv: [...base, '--health-address', '0'],
      wantError: '--health-address: not host:port',
    },
    { name: 'a bad level', argv: [...base, '--log-level', 'loud'], wantError: 'loud' },
  ])('usage error: $name', ({ argv, wantError }) => {
    const r = parseConfigSyncCommand(argv, {});
    expect(r).toMatchObject({ ok: false, exitCode: 2 });
    expect(!r.ok && r.message).toContain(wantError);
  });
});
