// Two DNSServers the reference describes besides the full table, served as rendered by real CoreDNS:
// - no internalProxyService: the pod-network view has no records and only forwards (HCP names hidden from pods),
//   while the VLAN view still answers them;
// - no upstream at all: the records are answered, every other name gets SERVFAIL — a clear failure, never an
//   NXDOMAIN that clients would cache and never a silent public resolver.
import type { DNSServer } from '@oooi/api';
import { e2eEnv, type TrackedProc } from '@oooi/rig';
import { planDnsServer } from './dns-api';
import { ask, openDnsLab, serveRendered, UPSTREAM_IP, type DnsLab } from './lab';
import { answeredRows, dnsServerFor, PROXY_VLAN_IP, UPSTREAM_ANSWER } from './reference';

jest.setTimeout(300_000);

let lab: DnsLab | undefined;
const procs: TrackedProc[] = [];

function files(dns: DNSServer): Readonly<Record<string, string>> {
  const r = planDnsServer(dns);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.files;
}

beforeAll(async () => {
  lab = await openDnsLab(e2eEnv().rig);
});

afterAll(async () => {
  for (const p of procs) await p.stop();
  await lab?.dispose();
});

test('without internalProxyService the pod-network view forwards the names the VLAN view answers', async () => {
  const base = dnsServerFor({ namespace: 'clusters', clusters: ['alpha'], upstream: UPSTREAM_IP });
  const dns: DNSServer = { ...base, spec: { ...base.spec, views: { vlan: base.spec.views?.vlan } } };
  const server = await serveRendered(lab!, files(dns), {
    label: 'no-ips',
    vlanAddress: '198.51.100.6',
    podAddress: '203.0.113.6',
  });
  procs.push(server.proc);
  for (const row of answeredRows(['alpha'])) {
    expect(await ask(lab!.vlanClient, '198.51.100.6', row.name)).toMatchObject({ answers: [row.vlan] });
    expect(await ask(lab!.podClient, '203.0.113.6', row.name)).toMatchObject({
      status: 'NOERROR',
      answers: [UPSTREAM_ANSWER],
    });
  }
});

test('without upstreams the records are answered and every other name gets SERVFAIL', async () => {
  const base = dnsServerFor({ namespace: 'clusters', clusters: ['alpha'], upstream: UPSTREAM_IP });
  const dns: DNSServer = { ...base, spec: { ...base.spec, upstreams: [] } };
  const server = await serveRendered(lab!, files(dns), {
    label: 'no-up',
    vlanAddress: '198.51.100.7',
    podAddress: '203.0.113.7',
  });
  procs.push(server.proc);
  expect(await ask(lab!.vlanClient, '198.51.100.7', 'api.alpha.example.com')).toMatchObject({
    status: 'NOERROR',
    answers: [PROXY_VLAN_IP],
  });
  for (const name of ['other.alpha.example.com', 'alpha.example.com', 'www.example.org']) {
    expect((await ask(lab!.vlanClient, '198.51.100.7', name)).status).toBe('SERVFAIL');
    expect((await ask(lab!.podClient, '203.0.113.7', name)).status).toBe('SERVFAIL');
  }
  expect(server.proc.log()).not.toMatch(/no next plugin found.*\n.*no next plugin found/);
});
