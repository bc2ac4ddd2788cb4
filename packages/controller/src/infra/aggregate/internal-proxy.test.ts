import { parseInternalProxyService, resolveInternalProxy } from './internal-proxy';
import { service } from '../../testing/fixtures';

const services = [
  service('vlan100-proxy', 'clusters', '172.30.0.10'),
  service('headless', 'clusters', 'None'),
  service('pending', 'clusters', undefined),
];

describe('resolveInternalProxy', () => {
  test.each([
    { name: 'unset', input: undefined, want: { state: 'unset' } },
    { name: 'empty is unset', input: '', want: { state: 'unset' } },
    { name: 'a literal ClusterIP', input: '172.30.9.9', want: { state: 'resolved', ip: '172.30.9.9' } },
    {
      name: 'a full Service name',
      input: 'vlan100-proxy.clusters.svc.cluster.local',
      want: {
        state: 'resolved',
        ip: '172.30.0.10',
        service: { namespace: 'clusters', name: 'vlan100-proxy' },
      },
    },
    {
      name: 'service.namespace',
      input: 'vlan100-proxy.clusters',
      want: {
        state: 'resolved',
        ip: '172.30.0.10',
        service: { namespace: 'clusters', name: 'vlan100-proxy' },
      },
    },
    {
      name: 'a trailing dot is accepted',
      input: 'vlan100-proxy.clusters.svc.',
      want: {
        state: 'resolved',
        ip: '172.30.0.10',
        service: { namespace: 'clusters', name: 'vlan100-proxy' },
      },
    },
  ])('$name', ({ input, want }) => {
    expect(resolveInternalProxy(input, services)).toEqual(want);
  });

  test.each([
    {
      name: 'a missing Service',
      input: 'nope.clusters.svc',
      wantError: 'Service clusters/nope does not exist',
    },
    {
      name: 'a headless Service',
      input: 'headless.clusters',
      wantError: 'Service clusters/headless has no IPv4 ClusterIP',
    },
    {
      name: 'no ClusterIP yet',
      input: 'pending.clusters',
      wantError: 'Service clusters/pending has no IPv4 ClusterIP',
    },
  ])('$name is unresolved', ({ input, wantError }) => {
    const got = resolveInternalProxy(input, services);
    expect(got.state).toBe('unresolved');
    expect(got.state === 'unresolved' && got.message).toContain(wantError);
  });

  test.each([
    { name: 'a single label', input: 'vlan100-proxy' },
    { name: 'not a Service domain', input: 'proxy.example.com' },
    { name: 'upper case', input: 'Proxy.clusters' },
  ])('$name is invalid', ({ input }) => {
    const got = parseInternalProxyService(input);
    expect(got.kind).toBe('invalid');
    expect(got.kind === 'invalid' && got.message).toContain('is neither an IPv4 address nor a Service name');
  });
});
