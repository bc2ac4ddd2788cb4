import { parseXdsCommand, type XdsCommand } from './command';

const parse = (argv: string, env = {}) => parseXdsCommand(argv.split(' ').filter(Boolean), env);
const command = (argv: string, env = {}): XdsCommand => {
  const r = parse(argv, env);
  if (!r.ok) throw new Error(r.message);
  return r.command;
};

describe('parseXdsCommand', () => {
  test('the controller’s Deployment arguments (packages/controller/src/proxy/desired/proxy-workload.ts)', () => {
    expect(
      command(
        '--namespace clusters --name vlan100-proxy --listen 127.0.0.1:18000 --health-address 198.51.100.5:18001 --envoy-admin 127.0.0.1:9901',
      ),
    ).toEqual({
      source: {
        kind: 'cluster',
        namespace: 'clusters',
        name: 'vlan100-proxy',
        kubeconfig: undefined,
        replicaAddress: undefined,
      },
      listen: '127.0.0.1:18000',
      health: { host: '198.51.100.5', port: 18001 },
      envoyAdmin: { host: '127.0.0.1', port: 9901 },
      bindAddress: '0.0.0.0',
      statusIntervalMs: 1000,
      trackFile: undefined,
      logLevel: 'info',
    });
  });

  test('--from-file with the defaults; --kubeconfig and --log-level default from the environment', () => {
    expect(command('--from-file ps.yaml --status-file s.json', { LOG_LEVEL: 'debug' })).toEqual({
      source: { kind: 'file', path: 'ps.yaml', statusFile: 's.json' },
      listen: '127.0.0.1:18000',
      health: { host: '127.0.0.1', port: 18001 },
      envoyAdmin: undefined,
      bindAddress: '0.0.0.0',
      statusIntervalMs: 1000,
      trackFile: undefined,
      logLevel: 'debug',
    });
    expect(command('--namespace a --name b', { KUBECONFIG: '/k' }).source).toMatchObject({
      kubeconfig: '/k',
    });
    expect(command('--namespace a --name b --kubeconfig /x', { KUBECONFIG: '/k' }).source).toMatchObject({
      kubeconfig: '/x',
    });
  });

  test.each([
    [
      '--from-file f --health-port 0 --listen [::1]:0',
      { health: { host: '127.0.0.1', port: 0 }, listen: '[::1]:0' },
    ],
    ['--from-file f --health-address [::1]:18001', { health: { host: '[::1]', port: 18001 } }],
    ['--from-file f --bind-address ::', { bindAddress: '::' }],
    ['--from-file f --status-interval-ms 0', { statusIntervalMs: 0 }],
    [
      '--from-file f --envoy-admin 127.0.0.1:9901 --track-file /run/oooi/envoy-serving',
      { trackFile: '/run/oooi/envoy-serving' },
    ],
  ])('%s', (argv, want) => {
    expect(command(argv)).toMatchObject(want);
  });

  test.each([
    ['', 'oooi-xds: give --from-file, or --namespace and --name'],
    ['--namespace a', 'oooi-xds: give --from-file, or --namespace and --name'],
    [
      '--from-file f --namespace a',
      'oooi-xds: --from-file and --namespace/--name: give one source, not both',
    ],
    [
      '--namespace a --name b --status-file s',
      'oooi-xds: --status-file: only with --from-file (in a cluster the status goes to the ProxyServer)',
    ],
    ['--from-file f --listen 18000', 'oooi-xds: --listen 18000: want HOST:PORT'],
    ['--from-file f --health-port 65536', 'oooi-xds: --health-port 65536: want a port, 0 to 65535'],
    ['--from-file f --health-port x', 'oooi-xds: --health-port x: want a port, 0 to 65535'],
    ['--from-file f --health-address :18001', 'oooi-xds: --health-address :18001: want HOST:PORT'],
    ['--from-file f --envoy-admin 127.0.0.1:0', 'oooi-xds: --envoy-admin 127.0.0.1:0: want HOST:PORT'],
    ['--from-file f --bind-address all', 'oooi-xds: --bind-address all: want an IP address'],
    ['--namespace a --name b --replica-address x', 'oooi-xds: --replica-address x: want an IPv4 address'],
    [
      '--from-file f --replica-address 198.51.100.5',
      'oooi-xds: --replica-address: only with --namespace and --name',
    ],
    [
      '--from-file f --track-file /t',
      'oooi-xds: --track-file: needs --envoy-admin (it tells whether Envoy serves)',
    ],
    [
      '--from-file f --status-interval-ms -1',
      'oooi-xds: --status-interval-ms -1: want a whole number of milliseconds, 0 to 3600000',
    ],
    [
      '--from-file f --log-level loud',
      'oooi-xds: --log-level (or $LOG_LEVEL) loud: want one of trace, debug, info, warn, error, fatal, silent',
    ],
  ])('refused, exit 2: %s', (argv, message) => {
    expect(parse(argv)).toEqual({ ok: false, exitCode: 2, message });
  });

  test('an unknown flag is a usage error (2); --help is not (0, the text)', () => {
    expect(parse('--from-file f --bogus')).toEqual({
      ok: false,
      exitCode: 2,
      message: "error: unknown option '--bogus'",
    });
    const help = parse('--help');
    expect(help).toMatchObject({ ok: false, exitCode: 0 });
    expect(!help.ok && help.message).toContain('--envoy-admin <host:port>');
  });
});
