// Every row of the reference's DNS table, per view.
import { dnsRecords } from './dns-records';
import type { DnsRecord } from './dns-records';
import { view } from '../../testing/views';

const proxyIP = '198.51.100.4';
const internalIP = '172.30.0.10';
const cp = (domain: string, ip: string): DnsRecord[] =>
  ['api', 'api-int', 'oauth', 'ignition', 'konnectivity'].map((l) => ({ name: `${l}.${domain}`, ip }));
const kube = (ip: string): DnsRecord[] =>
  ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'].map(
    (name) => ({ name, ip }),
  );

describe('dnsRecords', () => {
  test.each([
    {
      name: 'control-plane names: proxy serverIP on the VLAN, internalProxyService in pods',
      input: { views: [view('alpha')], proxyIP, internalIP },
      want: { vlan: cp('alpha.example.com', proxyIP), podNetwork: cp('alpha.example.com', internalIP) },
    },
    {
      name: '*.apps with an externalIP: MetalLB IP on the VLAN, the proxy ClusterIP in pods',
      input: { views: [view('alpha', { appsAt: { dnsIP: '198.51.100.201' } })], proxyIP, internalIP },
      want: {
        vlan: [
          ...cp('alpha.example.com', proxyIP),
          { name: '*.apps.alpha.example.com', ip: '198.51.100.201' },
        ],
        podNetwork: [
          ...cp('alpha.example.com', internalIP),
          { name: '*.apps.alpha.example.com', ip: internalIP },
        ],
      },
    },
    {
      name: 'a hostname-only apps endpoint gets no *.apps record',
      input: {
        views: [view('alpha', { appsAt: { endpoint: 'lb.example.net', dnsIP: undefined } })],
        proxyIP,
        internalIP,
      },
      want: { vlan: cp('alpha.example.com', proxyIP), podNetwork: cp('alpha.example.com', internalIP) },
    },
    {
      name: 'kubernetes names once, when any worker source range is known',
      input: {
        views: [
          view('alpha', { sources: ['198.51.100.9/32'] }),
          view('bravo', { sources: ['198.51.100.10/32'] }),
        ],
        proxyIP,
        internalIP,
      },
      want: {
        vlan: [...cp('alpha.example.com', proxyIP), ...cp('bravo.example.com', proxyIP), ...kube(proxyIP)],
        podNetwork: [
          ...cp('alpha.example.com', internalIP),
          ...cp('bravo.example.com', internalIP),
          ...kube(internalIP),
        ],
      },
    },
    {
      name: 'without internalProxyService the pod-network view is empty (forward only)',
      input: {
        views: [view('alpha', { sources: ['198.51.100.9/32'], appsAt: {} })],
        proxyIP,
        internalIP: undefined,
      },
      want: {
        vlan: [
          ...cp('alpha.example.com', proxyIP),
          { name: '*.apps.alpha.example.com', ip: '198.51.100.200' },
          ...kube(proxyIP),
        ],
        podNetwork: [],
      },
    },
    {
      name: 'without proxy serverIP the VLAN view keeps only *.apps',
      input: { views: [view('alpha', { appsAt: {} })], proxyIP: undefined, internalIP: undefined },
      want: { vlan: [{ name: '*.apps.alpha.example.com', ip: '198.51.100.200' }], podNetwork: [] },
    },
    {
      name: 'no attachments: no records',
      input: { views: [], proxyIP, internalIP },
      want: { vlan: [], podNetwork: [] },
    },
  ])('$name', ({ input, want }) => {
    expect(dnsRecords(input)).toEqual(want);
  });
});
