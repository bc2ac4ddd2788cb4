// A real client behind a real relay agent (dnsmasq in relay mode): the request arrives with giaddr set, the
// reply goes back to the relay at port 67, and the client gets a lease from the pool of its segment.
// Layout: the server's net1 holds 198.51.100.2/25; the relay joins that half (198.51.100.3/25) and the client
// segment 198.51.100.128/25 (198.51.100.129, the giaddr); the served network is the whole /24.
import { e2eEnv, rigBin, waitFor } from '@oooi/rig';
import { udhcpcOnce } from './clients';
import { labConfig, openDhcpLab, SERVER_IP, type DhcpLab } from './lab';

let lab: DhcpLab;
beforeAll(async () => {
  lab = await openDhcpLab(
    e2eEnv().rig,
    labConfig({ pool: { start: '198.51.100.200', end: '198.51.100.209' } }),
  );
});
afterAll(async () => {
  await lab?.dispose();
});

test('udhcpc behind dnsmasq --dhcp-relay gets a lease; the server answered the relay', async () => {
  await lab.srv.exec(['ip', 'addr', 'del', `${SERVER_IP}/24`, 'dev', 'net1']);
  await lab.srv.exec(['ip', 'addr', 'add', `${SERVER_IP}/25`, 'dev', 'net1']);
  await lab.srv.exec(['ip', 'route', 'add', '198.51.100.128/25', 'via', '198.51.100.3', 'dev', 'net1']);
  const segment = await lab.scope.createNetwork({ label: 'vlanb', cidr: '198.51.100.128/25' });
  const relay = await lab.scope.createNamespace('relay');
  await lab.vlan.attach(relay, { ifname: 'eth0' });
  await relay.exec(['ip', 'addr', 'add', '198.51.100.3/25', 'dev', 'eth0']);
  await segment.attach(relay, { ifname: 'eth1', address: '198.51.100.129/25' });
  await lab.startServer(['--log-level', 'debug']);
  const agent = relay.spawn(
    [
      await rigBin('dnsmasq'),
      '--keep-in-foreground',
      '--user=root',
      '--conf-file=/dev/null',
      '--port=0',
      '--log-dhcp',
      '--log-facility=-',
      `--pid-file=${lab.scope.dir}/relay.pid`,
      '--interface=eth1',
      `--dhcp-relay=198.51.100.129,${SERVER_IP}`,
    ],
    { label: 'dnsmasq-relay' },
  );
  await waitFor('relay listening', async () => (await relay.exec(['ss', '-lun'])).stdout.includes(':67 '), {
    timeoutMs: 10_000,
  });
  const client = await lab.client('behind-relay', segment);
  const b = (await udhcpcOnce(lab, client)).filter((e) => e.event === 'bound').at(-1);
  expect(b?.vars.ip).toMatch(/^198\.51\.100\.20\d$/);
  expect(b?.vars.serverid).toBe(SERVER_IP);
  expect(lab.server!.log()).toMatch(/"type":"ack","host":"198\.51\.100\.129"/);
  expect(agent.alive()).toBe(true);
});
