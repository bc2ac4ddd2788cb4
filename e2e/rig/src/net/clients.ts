// Real clients run inside our namespaces: dig for DNS, udhcpc and dhclient for DHCP. The DHCP hook script
// only sets or flushes the address on the client's interface inside its namespace (never resolv.conf,
// never a route), and logs what the server handed over.
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rigBin } from '../bins';
import { procInfo, stopProcess } from '../proc';
import { trackPid, untrackPid } from '../tracked';
import type { NetScope, Netns } from './scope';

export interface DigAnswer {
  /** The rcode from the header: NOERROR, NXDOMAIN, SERVFAIL, REFUSED… or TIMEOUT when nothing came back. */
  readonly status: string;
  /** The rdata of each answer record (for A: the addresses), in order. */
  readonly answers: string[];
  /** The NSID the server sent, when asked for (`nsid: true`). */
  readonly nsid?: string;
  readonly raw: string;
}

export interface DigQuery {
  readonly server: string;
  readonly name: string;
  readonly type?: string;
  readonly port?: number;
  readonly tcp?: boolean;
  /** Per-try timeout in seconds (default 1) and tries (default 2). */
  readonly timeoutSec?: number;
  readonly tries?: number;
  /** Ask for the server's NSID (RFC 5001). */
  readonly nsid?: boolean;
}

/** The NSID in dig's output (`+nsid +comments`), or undefined when the server sent none. */
export const nsidOf = (digOutput: string): string | undefined => /; NSID: .*\("(.*)"\)/.exec(digOutput)?.[1];

/** Runs `dig` inside NS and parses the status and answers. */
export async function dig(ns: Netns, q: DigQuery): Promise<DigAnswer> {
  const argv = [
    await rigBin('dig'),
    `@${q.server}`,
    '-p',
    String(q.port ?? 53),
    q.name,
    q.type ?? 'A',
    `+time=${q.timeoutSec ?? 1}`,
    `+tries=${q.tries ?? 2}`,
    '+noall',
    '+comments',
    '+answer',
    ...(q.tcp === true ? ['+tcp'] : []),
    ...(q.nsid === true ? ['+nsid'] : []),
  ];
  const res = await ns.exec(argv, { timeoutMs: 30_000 });
  const raw = res.stdout;
  const status = /status: ([A-Z]+)/.exec(raw)?.[1] ?? 'TIMEOUT';
  const answers = raw
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(';'))
    .map((l) => l.trim().split(/\s+/).slice(4).join(' '));
  const nsid = nsidOf(raw);
  return { status, answers, ...(nsid !== undefined ? { nsid } : {}), raw };
}

const hookScript = (log: string): string => `#!/bin/sh
# rig DHCP hook (udhcpc -s / dhclient -sf): sets the address inside this namespace only, logs the lease
# (the log path is written in: dhclient runs its script with a clean environment).
{
  echo "event=\${reason:-$1}"
  env | grep -E '^(new_[a-z_]+|ip|subnet|mask|router|dns|lease|domain|serverid|interface|broadcast)=' | sort
} >> '${log.replace(/'/g, "'\\''")}'
case "\${reason:-$1}" in
  BOUND|RENEW|REBIND|REBOOT|bound|renew)
    addr=\${new_ip_address:-$ip}; pfx=\${new_subnet_mask:-$subnet}
    [ -n "$addr" ] && ip addr replace "$addr/$pfx" dev "$interface" ;;
  RELEASE|STOP|EXPIRE|FAIL|deconfig)
    [ -n "$interface" ] && ip -4 addr flush dev "$interface" ;;
esac
exit 0
`;

export interface Lease {
  /** The leased address. */
  readonly ip: string;
  /** Everything the hook saw on the BOUND event (udhcpc names: ip, subnet, router, dns, lease, domain, serverid). */
  readonly vars: Readonly<Record<string, string>>;
  readonly log: string;
}

function parseBound(log: string): Lease | undefined {
  const events = log.split(/^event=/m).slice(1);
  const bound = events.reverse().find((e) => /^(bound|BOUND|RENEW|REBOOT)\b/.test(e));
  if (bound === undefined) return undefined;
  const vars: Record<string, string> = {};
  for (const line of bound.split('\n').slice(1)) {
    const eq = line.indexOf('=');
    if (eq > 0) vars[line.slice(0, eq).replace(/^new_/, '')] = line.slice(eq + 1);
  }
  const ip = vars.ip ?? vars.ip_address;
  return ip === undefined ? undefined : { ip, vars, log };
}

export interface LeaseRequest {
  readonly client: 'udhcpc' | 'dhclient';
  readonly ifname?: string;
  /** Overall time limit in seconds (default 20). */
  readonly timeoutSec?: number;
}

/** Gets one DHCP lease on IFNAME (default eth0) inside NS with a real client; throws when none comes. */
export async function dhcpLease(scope: NetScope, ns: Netns, req: LeaseRequest): Promise<Lease> {
  const ifname = req.ifname ?? 'eth0';
  const tag = `${req.client}-${randomBytes(2).toString('hex')}`;
  const script = join(scope.dir, `${tag}.hook.sh`);
  const log = join(scope.dir, `${tag}.lease.log`);
  await writeFile(script, hookScript(log));
  await chmod(script, 0o755);
  const secs = req.timeoutSec ?? 20;
  const env = { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' };
  const res =
    req.client === 'udhcpc'
      ? await ns.exec(
          [
            await rigBin('udhcpc'),
            '-f',
            '-q',
            '-n',
            '-t',
            '5',
            '-T',
            '1',
            '-i',
            ifname,
            '-s',
            script,
            '-O',
            'dns',
            '-O',
            'router',
            '-O',
            'domain',
          ],
          { timeoutMs: secs * 1000, env },
        )
      : await dhclientOnce(scope, ns, { script, ifname, tag, secs, env });
  const text = await readFile(log, 'utf8').catch(() => '');
  const lease = parseBound(text);
  if (lease === undefined) {
    throw new Error(
      `rig: ${req.client} got no lease on ${ns.name}/${ifname} (exit ${String(res.code)}): ${res.stderr.slice(-800)}`,
    );
  }
  return lease;
}

async function dhclientOnce(
  scope: NetScope,
  ns: Netns,
  o: { script: string; ifname: string; tag: string; secs: number; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stderr: string }> {
  const conf = join(scope.dir, `${o.tag}.conf`);
  await writeFile(
    conf,
    `request subnet-mask, broadcast-address, routers, domain-name-servers, domain-name, dhcp-lease-time, dhcp-server-identifier;\ntimeout ${o.secs};\nretry 1;\n`,
  );
  const base = [
    await rigBin('dhclient'),
    '-4',
    '-v',
    '-cf',
    conf,
    '-lf',
    join(scope.dir, `${o.tag}.leases`),
    '-pf',
    join(scope.dir, `${o.tag}.pid`),
    '-sf',
    o.script,
  ];
  const pidFile = join(scope.dir, `${o.tag}.pid`);
  const got = await ns.exec([...base, '-1', o.ifname], { timeoutMs: (o.secs + 5) * 1000, env: o.env });
  // dhclient forks into the background once bound: record that process, release the lease (which stops it),
  // and make sure it is gone
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  const info = pid > 0 ? procInfo(pid) : undefined;
  const ref = info !== undefined ? { pid, start: info.start } : undefined;
  if (ref !== undefined) trackPid(scope.owner, ref, `${o.tag}-daemon`);
  await ns.exec([...base, '-r', o.ifname], { timeoutMs: 10_000, env: o.env });
  if (ref !== undefined) {
    await stopProcess(ref, 2_000);
    untrackPid(scope.owner, ref);
  }
  await rm(pidFile, { force: true });
  return got;
}
