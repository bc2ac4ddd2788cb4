// Real DHCP clients (busybox udhcpc, ISC dhclient, dhcpcd 9) inside our namespaces. One hook script for all:
// it logs the event and every lease variable, and sets or flushes the address on the client's interface in
// its namespace only (never resolv.conf, never a route).
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rigBin, waitFor, type Netns, type TrackedProc } from '@oooi/rig';
import type { DhcpLab } from './lab';

export interface ClientEvent {
  readonly event: string;
  readonly vars: Readonly<Record<string, string>>;
}

const hook = (log: string) => `#!/bin/sh
{
  echo "event=\${reason:-$1}"
  env | grep -E '^(new_[a-z0-9_]+|old_ip_address|ip|subnet|mask|router|dns|lease|domain|search|serverid|mtu|staticroutes|ntpsrv|interface|broadcast|hostname)=' | sort
} >> '${log}'
case "\${reason:-$1}" in
  BOUND|RENEW|REBIND|REBOOT|bound|renew)
    addr=\${new_ip_address:-$ip}; pfx=\${new_subnet_cidr:-\${new_subnet_mask:-$subnet}}
    [ -n "$addr" ] && ip addr replace "$addr/$pfx" dev "$interface" ;;
  RELEASE|STOP|EXPIRE|FAIL|NAK|deconfig|leasefail|nak)
    [ -n "$interface" ] && ip -4 addr flush dev "$interface" ;;
esac
exit 0
`;

export function parseEvents(log: string): ClientEvent[] {
  return log
    .split(/^event=/m)
    .slice(1)
    .map((block) => {
      const [event = '', ...lines] = block.split('\n');
      const vars: Record<string, string> = {};
      for (const l of lines) {
        const eq = l.indexOf('=');
        if (eq > 0) vars[l.slice(0, eq).replace(/^new_/, '')] = l.slice(eq + 1);
      }
      return { event: event.trim(), vars };
    });
}

async function hookFor(
  lab: Pick<DhcpLab, 'scope'>,
  kind: string,
): Promise<{ tag: string; script: string; log: string }> {
  const tag = `${kind}-${randomBytes(3).toString('hex')}`;
  const script = join(lab.scope.dir, `${tag}.hook.sh`);
  const log = join(lab.scope.dir, `${tag}.events.log`);
  await writeFile(script, hook(log));
  await writeFile(log, '');
  await chmod(script, 0o755);
  return { tag, script, log };
}

const env = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** busybox udhcpc, once: DISCOVER → BOUND, asking for every option we serve; returns its events. */
export async function udhcpcOnce(
  lab: Pick<DhcpLab, 'scope'>,
  ns: Netns,
  extra: readonly string[] = [],
): Promise<ClientEvent[]> {
  const h = await hookFor(lab, 'udhcpc');
  const opts = ['dns', 'router', 'domain', 'search', 'mtu', 'staticroutes', 'ntpsrv', 'lease', 'broadcast'];
  await ns.exec(
    [
      await rigBin('udhcpc'),
      '-f',
      '-q',
      '-n',
      '-t',
      '4',
      '-T',
      '2',
      '-i',
      'eth0',
      '-s',
      h.script,
      ...opts.flatMap((o) => ['-O', o]),
      ...extra,
    ],
    { timeoutMs: 30_000, env },
  );
  return parseEvents(await readFile(h.log, 'utf8'));
}

const dhclientConf = `option rfc3442-classless-static-routes code 121 = array of unsigned integer 8;
request subnet-mask, broadcast-address, routers, domain-name-servers, domain-name, domain-search,
  interface-mtu, rfc3442-classless-static-routes, ntp-servers, dhcp-lease-time, dhcp-server-identifier,
  dhcp-renewal-time, dhcp-rebinding-time;
timeout 20;
retry 1;
`;

export interface Daemon {
  events(): Promise<ClientEvent[]>;
  waitEvent(event: RegExp, count?: number, timeoutMs?: number): Promise<ClientEvent>;
  /** dhclient -r: sends DHCPRELEASE and stops the daemon. */
  release(): Promise<void>;
  readonly proc: TrackedProc;
}

/** ISC dhclient in the foreground (-d), kept running to renew and rebind; LEASES preloads its lease file. */
export async function dhclientDaemon(lab: Pick<DhcpLab, 'scope'>, ns: Netns, leases = ''): Promise<Daemon> {
  const h = await hookFor(lab, 'dhclient');
  const conf = join(lab.scope.dir, `${h.tag}.conf`);
  const lf = join(lab.scope.dir, `${h.tag}.leases`);
  const pf = join(lab.scope.dir, `${h.tag}.pid`);
  await writeFile(conf, dhclientConf);
  await writeFile(lf, leases);
  const base = [await rigBin('dhclient'), '-4', '-v', '-cf', conf, '-lf', lf, '-pf', pf, '-sf', h.script];
  const proc = ns.spawn([...base, '-d', 'eth0'], { label: h.tag, env });
  const events = async () => parseEvents(await readFile(h.log, 'utf8'));
  return {
    proc,
    events,
    async waitEvent(event, count = 1, timeoutMs = 30_000) {
      let found: ClientEvent | undefined;
      await waitFor(
        `dhclient event ${String(event)} x${count}`,
        async () => {
          const hits = (await events()).filter((e) => event.test(e.event));
          found = hits[count - 1];
          return found !== undefined;
        },
        { timeoutMs, everyMs: 200 },
      );
      return found!;
    },
    async release() {
      await ns.exec([...base, '-r', 'eth0'], { timeoutMs: 15_000, env });
      await proc.stop();
    },
  };
}

/** dhcpcd 9, once (-1), with its compiled-in state directories replaced by private mounts. */
export async function dhcpcdOnce(lab: DhcpLab, ns: Netns, conf = ''): Promise<ClientEvent[]> {
  const h = await hookFor(lab, 'dhcpcd');
  const run = join(lab.scope.dir, `${h.tag}-run`);
  await mkdir(run, { recursive: true });
  const cf = join(lab.scope.dir, `${h.tag}.conf`);
  await writeFile(
    cf,
    `option domain_name_servers, domain_name, domain_search, routers, interface_mtu, classless_static_routes, ntp_servers\nnohook resolv.conf\nnoipv6rs\nnoipv6\n${conf}`,
  );
  const dhcpcd = await rigBin('dhcpcd');
  await ns.exec(
    [
      'sh',
      '-c',
      `mkdir -p /var/lib/dhcpcd && mount -t tmpfs oooi-dhcpcd /var/lib/dhcpcd && mount --bind '${run}' /run && exec timeout 40 ${dhcpcd} -4 -1 -B -t 30 -f '${cf}' -c '${h.script}' eth0`,
    ],
    { timeoutMs: 45_000, env },
  );
  return parseEvents(await readFile(h.log, 'utf8'));
}
