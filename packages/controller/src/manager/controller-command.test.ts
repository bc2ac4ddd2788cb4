import { parseAddress } from '../command/process-flags';
import { parseControllerCommand } from './controller-command';

describe('parseControllerCommand', () => {
  test('defaults', () => {
    const r = parseControllerCommand([], { POD_NAMESPACE: 'oooi-system', POD_NAME: 'oooi-0' }, 'host-x');
    expect(r).toEqual({
      ok: true,
      config: {
        kubeconfig: undefined,
        namespace: undefined,
        leaderElection: { namespace: 'oooi-system', name: 'oooi-controller' },
        identity: 'oooi-0',
        health: { host: '0.0.0.0', port: 8081 },
        metrics: { host: '0.0.0.0', port: 8080 },
        images: {
          dhcp: 'ghcr.io/oooi-project/oooi-dhcp:0.1.0',
          dhcpServer: 'ghcr.io/oooi-project/oooi-dhcp:0.1.0',
          dns: 'docker.io/coredns/coredns:1.14.7',
          proxy: 'docker.io/envoyproxy/envoy:v1.36.4',
          xds: 'ghcr.io/oooi-project/oooi-xds:0.1.0',
          keepalived: 'ghcr.io/oooi-project/oooi-keepalived:0.1.0',
          configSync: 'ghcr.io/oooi-project/oooi-controller:0.1.0',
        },
        networkPolicy: {
          enabled: true,
          metricsNamespaces: ['openshift-monitoring', 'openshift-user-workload-monitoring'],
        },
        nodeLossTolerationSeconds: 15,
        apiRateLimit: undefined,
        logLevel: 'info',
      },
    });
  });

  test('flags win over the environment', () => {
    const r = parseControllerCommand(
      [
        '--kubeconfig=/k',
        '--namespace=clusters',
        '--no-leader-elect',
        '--health-address=127.0.0.1:9000',
        '--metrics-address=0',
        '--dns-image=mirror/coredns:1.14.7',
        '--node-loss-toleration-seconds=0',
        '--kube-api-qps=50',
        '--kube-api-burst=80',
        '--log-level=debug',
      ],
      { KUBECONFIG: '/other', WATCH_NAMESPACE: 'x' },
      'host-x',
    );
    expect(r.ok && r.config).toMatchObject({
      kubeconfig: '/k',
      namespace: 'clusters',
      leaderElection: undefined,
      identity: 'host-x',
      health: { host: '127.0.0.1', port: 9000 },
      metrics: undefined,
      images: { dns: 'mirror/coredns:1.14.7' },
      nodeLossTolerationSeconds: 0,
      apiRateLimit: { qps: 50, burst: 80 },
      logLevel: 'debug',
    });
  });

  test.each([
    {
      name: 'off',
      argv: ['--namespace=a', '--no-network-policy'],
      want: {
        enabled: false,
        metricsNamespaces: ['openshift-monitoring', 'openshift-user-workload-monitoring'],
      },
    },
    {
      name: 'other scrapers, blanks and repeats dropped, sorted',
      argv: ['--namespace=a', '--network-policy-metrics-namespaces= monitoring,,kube-prometheus,monitoring'],
      want: { enabled: true, metricsNamespaces: ['kube-prometheus', 'monitoring'] },
    },
    {
      name: 'no scrapers',
      argv: ['--namespace=a', '--network-policy-metrics-namespaces='],
      want: { enabled: true, metricsNamespaces: [] },
    },
  ])('network policy flags: $name', ({ argv, want }) => {
    const r = parseControllerCommand(argv, {}, 'host-x');
    expect(r.ok && r.config.networkPolicy).toEqual(want);
  });

  test.each([
    {
      name: 'a metrics namespace that is no namespace name',
      argv: ['--namespace=a', '--network-policy-metrics-namespaces=monitoring,Bad_NS'],
      wantError: '--network-policy-metrics-namespaces: not a namespace name: Bad_NS',
    },
    { name: 'leader election without a namespace', argv: [], wantError: 'leader election needs a namespace' },
    {
      name: 'a bad address',
      argv: ['--namespace=a', '--health-address=nope'],
      wantError: '--health-address',
    },
    ...['-1', '3601', '1.5', 'soon', ''].map((v) => ({
      name: `node-loss toleration seconds ${JSON.stringify(v)}`,
      argv: ['--namespace=a', `--node-loss-toleration-seconds=${v}`],
      wantError: `--node-loss-toleration-seconds: not a whole number of seconds from 0 to 3600: ${v}`,
    })),
    ...['0', 'fast', '', 'Infinity'].map((v) => ({
      name: `kube-api-qps ${JSON.stringify(v)}`,
      argv: ['--namespace=a', `--kube-api-qps=${v}`],
      wantError: `--kube-api-qps: not a positive number or -1 (no client-side limit): ${v}`,
    })),
    ...['0', '1.5', 'many'].map((v) => ({
      name: `kube-api-burst ${JSON.stringify(v)}`,
      argv: ['--namespace=a', '--kube-api-qps=20', `--kube-api-burst=${v}`],
      wantError: `--kube-api-burst: not a whole number of at least 1: ${v}`,
    })),
    { name: 'a bad log level', argv: ['--namespace=a', '--log-level=loud'], wantError: 'loud' },
    { name: 'an unknown flag', argv: ['--namespace=a', '--frobnicate'], wantError: 'unknown option' },
  ])('$name', ({ argv, wantError }) => {
    const r = parseControllerCommand(argv, {}, 'h');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.exitCode).toBe(2);
    expect(!r.ok && r.message).toContain(wantError);
  });

  test.each([
    { input: ':8080', want: { host: '0.0.0.0', port: 8080 } },
    { input: '[::1]:8080', want: { host: '::1', port: 8080 } },
    { input: '0', want: undefined },
    { input: 'x:99999', want: 'invalid' },
  ])('address $input', ({ input, want }) => {
    expect(parseAddress(input)).toEqual(want);
  });
});
