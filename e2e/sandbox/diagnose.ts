// Why a name did not resolve in the sandbox: each stage between the DNSServer and CoreDNS's answer, so a failed DNS
// check says which one still lacks the record — the DNSServer's spec (written by the Infra reconciler), its
// ConfigMap (the DNSServer reconciler), the files in the DNS pod (its config-sync sidecar) or the answer (CoreDNS,
// after its reload) — with the last lines of the pod's two containers. `dnsStages` is pure; `diagnoseDns` reads.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DNSServer } from '@oooi/api';
import { ConfigMapKind, readAtomicDir } from '@oooi/controller';
import type { KubeClient, KubeObject } from '@oooi/kube';
import { kinds } from '../controller/support';

/** The records that answer NAME: its own, or the wildcard one label up (RFC 4592, one level as in our zones). */
export function coveringNames(name: string): string[] {
  const parent = name.split('.').slice(1).join('.');
  return parent ? [name, `*.${parent}`] : [name];
}

/** The Corefile's `nsid` lines (view and serial) and the files holding a record for NAME, in a few words. */
export function filesStage(files: Readonly<Record<string, string>> | undefined, name: string): string {
  if (files === undefined) return 'none';
  const nsids = [...(files.Corefile ?? '').matchAll(/^\s*nsid oooi \S+ (\S+) (\S+)$/gm)].map(
    ([, view, serial]) => `${view} ${serial}`,
  );
  const covers = coveringNames(name);
  const holding = Object.keys(files)
    .filter((f) => f !== 'Corefile')
    .filter((f) => covers.some((c) => files[f]!.split('\n').some((l) => l.startsWith(`${c}. `))))
    .sort();
  return `nsid ${nsids.join(', ') || '(none)'}; a record for it in ${holding.join(', ') || 'no file'}`;
}

/** The spec's records for NAME per view. */
export function specStage(dns: DNSServer | undefined, name: string): string {
  if (!dns) return 'not found';
  const covers = coveringNames(name);
  const views = dns.spec?.views;
  const view = (label: string, records: readonly { name: string; ip: string }[] | undefined) => {
    const r = (records ?? []).find((x) => covers.includes(x.name));
    return `${label} ${r ? `${r.name} -> ${r.ip}` : '(none)'}`;
  };
  const m = dns.metadata as KubeObject['metadata'] & { generation?: number };
  return (
    `g${m?.generation ?? '?'} (status g${dns.status?.observedGeneration ?? '?'}): ` +
    `${view('vlan', views?.vlan?.records)}; ${view('pod-network', views?.podNetwork?.records)}`
  );
}

/** A log line in a few words: pino's JSON as time, message and the fields that place it; other lines as they are. */
export function logLine(line: string): string {
  try {
    const j = JSON.parse(line) as Record<string, unknown>;
    if (typeof j.msg !== 'string') return line.slice(0, 200);
    const at = typeof j.time === 'number' ? `${new Date(j.time).toISOString().slice(11, 23)} ` : '';
    const fields = ['resourceVersion', 'pid', 'why', 'err']
      .filter((k) => j[k] !== undefined)
      .map((k) => {
        const v = j[k] as { message?: unknown } | string | number;
        const text = typeof v === 'object' && typeof v.message === 'string' ? v.message : JSON.stringify(v);
        return `${k} ${text.replace(/^"|"$/g, '').slice(0, 160)}`;
      });
    return `${at}${j.msg}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
  } catch {
    return line.slice(0, 200);
  }
}

/** The last N non-empty lines of a log file that KEEP accepts, or why there are none. */
async function tail(
  file: string,
  n: number,
  keep: (line: string) => boolean = () => true,
): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '' && keep(l))
      .slice(-n)
      .map(logLine);
  } catch (err) {
    return [`(${err instanceof Error ? err.message : String(err)})`];
  }
}

/** pino's JSON at warn or above. */
const warnOrWorse = (line: string): boolean => Number(/"level":(\d+)/.exec(line)?.[1] ?? 0) >= 40;

/** The files CoreDNS reads: the first of the pod's volumes whose set (as config-sync wrote it) holds a Corefile. */
async function podFiles(podDir: string): Promise<Record<string, string> | undefined> {
  const volumes = join(podDir, 'volumes');
  for (const v of await readdir(volumes).catch(() => [] as string[])) {
    const files = await readAtomicDir(join(volumes, v));
    if (files?.Corefile !== undefined) return files;
  }
  return undefined;
}

export interface DnsDiagnosisInput {
  readonly name: string;
  readonly dnsServer: DNSServer | undefined;
  readonly configMap: (KubeObject & { data?: Record<string, string> }) | undefined;
  /** The DNS pod the kubelet runs now (its address, its volumes and container logs), if any. */
  readonly pod: { readonly name: string; readonly podIP: string; readonly dir: string } | undefined;
  /** The NSID of the last answer, when one came. */
  readonly answeredNsid: string | undefined;
  /** The operator's log (its warnings and errors are shown). */
  readonly operatorLog?: string | undefined;
}

/** Lines saying, stage by stage, where NAME's record is and is not. */
export async function diagnoseDns(i: DnsDiagnosisInput): Promise<string[]> {
  const cm = i.configMap;
  const dir = i.pod?.dir;
  const logs = dir
    ? [
        ...(await tail(join(dir, 'config-sync.log'), 4)).map((l) => `  config-sync.log: ${l}`),
        ...(await tail(join(dir, 'coredns.log'), 6)).map((l) => `  coredns.log: ${l}`),
      ]
    : [];
  const operator = i.operatorLog ? await tail(i.operatorLog, 6, warnOrWorse) : [];
  return [
    `why ${i.name} got no answer, stage by stage:`,
    `  DNSServer spec ${specStage(i.dnsServer, i.name)}`,
    `  ConfigMap ${cm?.metadata?.name ?? '(none)'} rv ${cm?.metadata?.resourceVersion ?? '?'}: ${filesStage(cm?.data, i.name)}`,
    `  the DNS pod now: ${i.pod ? `${i.pod.name} at ${i.pod.podIP}` : 'none'}`,
    `  files in the DNS pod (config-sync): ${filesStage(dir ? await podFiles(dir) : undefined, i.name)}`,
    `  CoreDNS answered with NSID: ${i.answeredNsid ?? '(no answer carried one)'}`,
    ...logs,
    ...operator.map((l) => `  operator (warn+): ${l}`),
  ];
}

/** The sandbox's diagnosis of the DNSServer DNS_SERVER in NAMESPACE, whose ConfigMap and pod are named alike. */
export function dnsDiagnosis(o: {
  readonly admin: KubeClient;
  readonly namespace: string;
  readonly dnsServer: string;
  readonly configMap: string;
  /** The DNS pod now (the kubelet may have replaced it). */
  readonly pod: () => DnsDiagnosisInput['pod'];
  /** The operator's log file now. */
  readonly operatorLog: () => string | undefined;
}): (name: string, answeredNsid: string | undefined) => Promise<string[]> {
  const at = (name: string) => ({ namespace: o.namespace, name });
  return async (name, answeredNsid) =>
    diagnoseDns({
      name,
      dnsServer: (await o.admin.get(kinds.DNSServer, at(o.dnsServer))) as DNSServer | undefined,
      configMap: await o.admin.get(ConfigMapKind, at(o.configMap)),
      pod: o.pod(),
      operatorLog: o.operatorLog(),
      answeredNsid,
    });
}
