// oooi-dhcp with its lease directory on a REAL tiny tmpfs (64 KiB, mounted by the test: needs root) that fills up
// under perfdhcp load: while it is full no client is ACKed and the metrics say why (the lab has no apiserver, so
// the LeaseStore condition is checked in unit tests); once space is freed a real udhcpc client is served, and after
// a SIGKILL every ACK a client saw (captured on the client side of the wire) is in the lease store.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LeaseStore, decodePacket, macOf, MessageType, messageType } from '@oooi/dhcp';
import { e2eEnv, rigBin, sleep, waitFor } from '@oooi/rig';
import { udhcpcOnce } from './clients';
import { labConfig, openDhcpLab, SERVER_IP, type DhcpLab } from './lab';
import { readPcapUdp } from './pcap';

const RELAY = '198.51.100.250';
let lab: DhcpLab;
let mounted = false;

beforeAll(async () => {
  lab = await openDhcpLab(
    e2eEnv().rig,
    labConfig({ pool: { start: '198.51.100.10', end: '198.51.100.249' }, leaseTimeSeconds: 3600 }),
  );
  await mkdir(lab.leaseDir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', lab.leaseDir]);
  mounted = true;
});
afterAll(async () => {
  if (lab?.server?.alive() === true) process.kill(lab.server.ref.pid, 'SIGKILL');
  if (mounted) execFileSync('umount', ['-l', lab.leaseDir]);
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

const bound = (events: { event: string; vars: Record<string, string> }[]) =>
  events.filter((e) => /^(bound|BOUND|REBOOT)$/.test(e.event)).at(-1);

/** Fills the tmpfs with 1 KiB files until the kernel refuses; resolves to their names. */
async function fill(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (let n = 0; ; n++) {
    const f = join(dir, `fill-${n}`);
    try {
      await writeFile(f, Buffer.alloc(1024, 1));
      names.push(f);
    } catch {
      await rm(f, { force: true });
      return names;
    }
  }
}

test('a lease directory that fills: no ACK while full, the metrics say so, served again once freed, every ACK survives SIGKILL', async () => {
  const server = await lab.startServer();
  const first = await lab.client('first');
  const a = bound(await udhcpcOnce(lab, first));
  expect(a?.vars.ip).toBeDefined();

  const filler = await fill(lab.leaseDir);
  expect(filler.length).toBeGreaterThan(0);
  const perfNs = await lab.client('perf', lab.vlan, `${RELAY}/24`);
  const pcap = join(lab.scope.dir, 'client-side.pcap');
  const dump = perfNs.spawn([await rigBin('tcpdump'), '-i', 'eth0', '-n', '-U', '-w', pcap, 'udp port 67'], {
    label: 'tcpdump-perf',
  });
  await waitFor('tcpdump listening', () => dump.log().includes('listening on'), { timeoutMs: 10_000 });
  const perf = perfNs.spawn(
    [await rigBin('perfdhcp'), '-4', '-l', RELAY, '-R', '200', '-r', '200', '-p', '60', SERVER_IP],
    { label: 'perfdhcp' },
  );
  // the journal's last page fills, then every write is refused
  await waitFor(
    'lease writes failing',
    async () => (await lab.metric('oooi_dhcp_lease_store_write_failures_total', 'ENOSPC')) > 0,
    { timeoutMs: 30_000, everyMs: 250 },
  );
  await sleep(500);
  const ackedBefore = (await acksIn(pcap)).length;
  await sleep(3000);
  // still full: not one more ACK, while the requests keep coming and are dropped
  expect((await acksIn(pcap)).length).toBe(ackedBefore);
  expect(await lab.metric('oooi_dhcp_lease_store_writable')).toBe(0);
  expect(await lab.metric('oooi_dhcp_drops_total', 'reason="commit_failed"')).toBeGreaterThan(0);
  expect(server.log()).toContain('Lease store write failed; no ACKs until a write succeeds');
  await perf.stop();
  // a real client gets no lease while the disk is full
  const second = await lab.client('second');
  expect(bound(await udhcpcOnce(lab, second))).toBeUndefined();

  // space freed: the next REQUEST after the backoff is durable and ACKed
  for (const f of filler) await rm(f);
  // (udhcpc gives up after three tries of 2 s; the store's backoff after several failures is longer)
  let b: ReturnType<typeof bound>;
  for (let k = 0; k < 6 && b === undefined; k++) b = bound(await udhcpcOnce(lab, second));
  expect(b?.vars.ip).toBeDefined();
  expect(await lab.metric('oooi_dhcp_lease_store_writable')).toBe(1);
  await sleep(300);
  await dump.stop();
  const acks = await acksIn(pcap);
  expect(acks.length).toBeGreaterThan(10);
  // at most one journal was added while writes failed
  expect((await readdir(lab.leaseDir)).filter((n) => n.startsWith('journal-')).length).toBeLessThanOrEqual(2);

  process.kill(server.ref.pid, 'SIGKILL');
  await waitFor('server gone', () => !server.alive(), { timeoutMs: 5_000 });
  const { store, table, damage } = await LeaseStore.open(lab.leaseDir);
  await store.close();
  const missing = acks.filter((x) => {
    const l = table.get(x.ip);
    return l === undefined || l.mac !== x.mac || l.state !== 'bound';
  });
  expect(missing).toEqual([]);
  const ipNum = (s: string) => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  for (const v of [a!.vars.ip!, b!.vars.ip!]) expect(table.get(ipNum(v))?.state).toBe('bound');
  expect(damage).toEqual([]);

  // restarted on the same store, the first client renews its address
  await lab.startServer();
  const again = bound(await udhcpcOnce(lab, first));
  expect(again?.vars.ip).toBe(a!.vars.ip);
}, 180_000);
