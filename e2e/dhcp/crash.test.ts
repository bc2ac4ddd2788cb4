// kill -9 under perfdhcp load: every ACK a client saw (captured on the client side of the wire) is in the
// lease store after the restart, and no address was ever ACKed to two clients.
import { join } from 'node:path';
import { LeaseStore, decodePacket, macOf, MessageType, messageType } from '@oooi/dhcp';
import { e2eEnv, rigBin, sleep, waitFor } from '@oooi/rig';
import { labConfig, openDhcpLab, SERVER_IP, type DhcpLab } from './lab';
import { readPcapUdp } from './pcap';

const RELAY = '198.51.100.250';
let lab: DhcpLab;

beforeAll(async () => {
  lab = await openDhcpLab(
    e2eEnv().rig,
    labConfig({ pool: { start: '198.51.100.10', end: '198.51.100.249' }, leaseTimeSeconds: 3600 }),
  );
});
afterAll(async () => {
  await lab?.dispose();
});

interface Ack {
  readonly mac: string;
  readonly ip: number;
}

async function acksIn(pcap: string): Promise<Ack[]> {
  const acks: Ack[] = [];
  for (const d of await readPcapUdp(pcap)) {
    if (d.src !== SERVER_IP) continue;
    const r = decodePacket(d.payload);
    if (r.ok && messageType(r.packet) === MessageType.ACK)
      acks.push({ mac: macOf(r.packet), ip: r.packet.yiaddr });
  }
  return acks;
}

test('kill -9 during perfdhcp load: every client-seen ACK is durable, no address given twice', async () => {
  const perfNs = await lab.client('perf', lab.vlan, `${RELAY}/24`);
  const pcap = join(lab.scope.dir, 'client-side.pcap');
  const dump = perfNs.spawn([await rigBin('tcpdump'), '-i', 'eth0', '-n', '-U', '-w', pcap, 'udp port 67'], {
    label: 'tcpdump-perf',
  });
  await waitFor('tcpdump listening', () => dump.log().includes('listening on'), { timeoutMs: 10_000 });
  const server = await lab.startServer();
  const perf = perfNs.spawn(
    [await rigBin('perfdhcp'), '-4', '-l', RELAY, '-R', '200', '-r', '1500', '-p', '8', SERVER_IP],
    { label: 'perfdhcp' },
  );
  // let the load run, then kill the server without warning, mid-stream
  await waitFor('ACKs flowing', async () => (await acksIn(pcap)).length > 500, {
    timeoutMs: 20_000,
    everyMs: 250,
  });
  process.kill(server.ref.pid, 'SIGKILL');
  await waitFor('server gone', () => !server.alive(), { timeoutMs: 5_000 });
  await perf.stop();
  await sleep(300);
  await dump.stop();
  const acks = await acksIn(pcap);
  expect(acks.length).toBeGreaterThan(500);

  const { store, table } = await LeaseStore.open(lab.leaseDir);
  await store.close();
  const missing = acks.filter((a) => {
    const l = table.get(a.ip);
    return l === undefined || l.mac !== a.mac || l.state !== 'bound';
  });
  expect(missing).toEqual([]);
  const owner = new Map<number, string>();
  for (const a of acks) {
    expect(owner.get(a.ip) ?? a.mac).toBe(a.mac);
    owner.set(a.ip, a.mac);
  }

  // the restarted server serves on from the same store: the same clients keep their addresses
  await lab.startServer();
  const pcap2 = join(lab.scope.dir, 'after-restart.pcap');
  const dump2 = perfNs.spawn(
    [await rigBin('tcpdump'), '-i', 'eth0', '-n', '-U', '-w', pcap2, 'udp port 67'],
    { label: 'tcpdump-perf2' },
  );
  await waitFor('tcpdump listening', () => dump2.log().includes('listening on'), { timeoutMs: 10_000 });
  const again = perfNs.exec(
    [await rigBin('perfdhcp'), '-4', '-l', RELAY, '-R', '200', '-r', '200', '-p', '3', SERVER_IP],
    { timeoutMs: 30_000 },
  );
  const res = await again;
  await dump2.stop();
  expect(res.stdout).toMatch(/received packets: [1-9]/);
  for (const a of await acksIn(pcap2)) {
    expect(owner.get(a.ip) ?? a.mac).toBe(a.mac);
    owner.set(a.ip, a.mac);
  }
});
