// The wire fuzzer shared by the e2e slice (fuzz.test.ts) and the full run (bench/dhcp/fuzz.ts): real clients
// get leases while their packets are captured (the corpus), then COUNT mutations of those captures go to the
// running server; its RSS is sampled along the way; afterwards it must be alive and a real client must still
// get a lease.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot, rigBin, waitFor } from '@oooi/rig';
import { dhclientDaemon, dhcpcdOnce, udhcpcOnce } from './clients';
import { labConfig, SERVER_IP, type DhcpLab } from './lab';
import { readPcapUdp } from './pcap';

export interface FuzzResult {
  readonly corpus: number;
  readonly sent: number;
  readonly seconds: number;
  /** Server RSS in MiB at each tenth of the run (first sample before the first packet). */
  readonly rssMiB: number[];
  readonly alive: boolean;
  readonly leaseAfter: string | undefined;
  readonly malformed: number;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function captureCorpus(lab: DhcpLab): Promise<Uint8Array[]> {
  const pcap = join(lab.scope.dir, 'corpus.pcap');
  const dump = lab.srv.spawn(
    [await rigBin('tcpdump'), '-i', 'net1', '-n', '-U', '-w', pcap, 'udp dst port 67'],
    { label: 'tcpdump-corpus' },
  );
  await waitFor('tcpdump listening', () => dump.log().includes('listening on'), { timeoutMs: 10_000 });
  await udhcpcOnce(lab, await lab.client('seed-udhcpc'), ['-x', 'hostname:seed']);
  await dhcpcdOnce(lab, await lab.client('seed-dhcpcd'), 'noarp\n');
  const d = await dhclientDaemon(lab, await lab.client('seed-dhclient'));
  await d.waitEvent(/^BOUND$/);
  await d.release();
  await dump.stop();
  return (await readPcapUdp(pcap)).map((p) => p.payload);
}

/**
 * Mutated packets carry random MACs, so they use up any pool (correctly); the client that must get a lease
 * afterwards has a reservation, so the check is "does the server still serve", not "is the pool still free".
 */
export const AFTER_FUZZ_IP = '198.51.100.5';

export async function runWireFuzz(
  lab: DhcpLab,
  o: { count: number; rate: number; seed: number },
): Promise<FuzzResult> {
  const afterNs = await lab.client('after-fuzz');
  const link = (await afterNs.exec(['ip', '-o', 'link', 'show', 'eth0'])).stdout;
  const mac = /link\/ether ([0-9a-f:]{17})/.exec(link)?.[1];
  if (mac === undefined) throw new Error('fuzz: no MAC on the after-fuzz client');
  await lab.writeConfig(
    labConfig({
      pool: { start: '198.51.100.10', end: '198.51.100.249' },
      reservations: [{ mac, ip: AFTER_FUZZ_IP }],
    }),
  );
  const server = await lab.startServer();
  const corpus = await captureCorpus(lab);
  if (corpus.length < 4) throw new Error(`fuzz: only ${corpus.length} packets captured for the corpus`);
  const corpusFile = join(lab.scope.dir, 'corpus.hex');
  await writeFile(corpusFile, corpus.map((c) => Buffer.from(c).toString('hex')).join('\n'));
  const sender = await lab.client('fuzzer', lab.vlan, '198.51.100.251/24');
  const rss: number[] = [await rssMiB(server.ref.pid)];
  const t0 = Date.now();
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const proc = sender.spawn(
    [
      tsx,
      join(__dirname, 'fuzz-sender.ts'),
      corpusFile,
      String(o.count),
      String(o.seed),
      String(o.rate),
      SERVER_IP,
      '198.51.100.251',
    ],
    { label: 'fuzz-sender', cwd: repoRoot },
  );
  const expectedMs = (o.count / o.rate) * 1000;
  let next = 1;
  await waitFor(
    'fuzz sender done',
    async () => {
      if (Date.now() - t0 >= (expectedMs * next) / 10 && next < 10) {
        next++;
        rss.push(await rssMiB(server.ref.pid));
      }
      return !proc.alive();
    },
    { timeoutMs: expectedMs * 3 + 60_000, everyMs: 250 },
  );
  const seconds = (Date.now() - t0) / 1000;
  rss.push(await rssMiB(server.ref.pid));
  const sent = Number(/sent (\d+)/.exec(proc.log())?.[1] ?? 0);
  const alive = server.alive();
  const after = (await udhcpcOnce(lab, afterNs)).filter((e) => e.event === 'bound').at(-1);
  return {
    corpus: corpus.length,
    sent,
    seconds,
    rssMiB: rss.map((r) => Math.round(r * 10) / 10),
    alive,
    leaseAfter: after?.vars.ip,
    malformed: await lab.metric('oooi_dhcp_packets_received_total', 'type="malformed"'),
  };
}
