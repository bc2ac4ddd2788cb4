// What the sandbox's clients do once everything is Ready, each step waiting (bounded) for its service to answer:
// the VM on the VLAN (a DHCP lease, its API name from the VLAN view and a call to that API through Envoy, a *.apps
// name and its router's answer) and a client pod on the pod network (each cluster's *.apps name from the
// pod-network view, then HTTP by Host and TLS by SNI through Envoy to that cluster's router).
import { dhcpLease, dig, rigBin, waitFor, type NetScope, type Netns, type Network } from '@oooi/rig';
import { startPodClient, type ServiceBackend } from './pod-client';

/** One DNS question and its answers. */
export interface Answer {
  readonly name: string;
  readonly server: string;
  readonly answers: readonly string[];
}

export interface VmView {
  readonly lease: { readonly ip: string; readonly router?: string; readonly dns?: string };
  readonly dns: Answer;
  /** The VM's HTTPS call to its cluster's API through Envoy (SNI api.<domain>), verified against its CA. */
  readonly api: { readonly url: string; readonly address: string; readonly gitVersion: string };
  /** A *.apps name: the VLAN view's answer (the MetalLB address) and the router's HTTP answer there. */
  readonly apps: Answer & { readonly http: string };
}

export interface PodView {
  /** The DNS Service's ClusterIP (the pod-network view) and the proxy's (what it answers *.apps with). */
  readonly server: string;
  readonly proxy: string;
  /**
   * Per cluster: its *.apps name, then through Envoy the router's HTTP answer (by Host) and the CN of the
   * certificate the TLS handshake met (by SNI, on 443).
   */
  readonly clusters: readonly (Answer & { readonly http: string; readonly tls: string })[];
}

export interface CheckContext {
  readonly scope: NetScope;
  readonly say: (line: string) => void;
  readonly signal: AbortSignal | undefined;
  /** Where a name's record is and is not, stage by stage (diagnose.ts), for a DNS check that timed out. */
  readonly diagnose?: (name: string, answeredNsid: string | undefined) => Promise<string[]>;
}

/** A name under a cluster's *.apps wildcard: its web console. */
export const appsName = (domain: string) => `console-openshift-console.apps.${domain}`;

/** Asks SERVER for NAME from NS until it answers (bounded); a timeout says, stage by stage, where the record is. */
async function resolve(ctx: CheckContext, ns: Netns, server: string, name: string): Promise<Answer> {
  let answers: string[] = [];
  let nsid: string | undefined;
  try {
    await waitFor(
      `a DNS answer for ${name} from ${server}`,
      async () => {
        const a = await dig(ns, { server, name, nsid: true });
        answers = a.answers;
        nsid = a.nsid ?? nsid;
        return a.status === 'NOERROR' && answers.length > 0;
      },
      { timeoutMs: 60_000, everyMs: 1000, signal: ctx.signal },
    );
  } catch (err) {
    if (!ctx.diagnose || ctx.signal?.aborted) throw err;
    const why = await ctx.diagnose(name, nsid).catch((e: unknown) => [`(no diagnosis: ${String(e)})`]);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${why.join('\n')}`, {
      cause: err,
    });
  }
  return { name, server, answers };
}

/** curl from NS, NAME pinned to ADDRESS (the DNS answer); the body, or '' while it fails. */
async function fetchText(
  ns: Netns,
  url: string,
  address: string,
  extra: readonly string[] = [],
): Promise<string> {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const r = await ns.exec(
    [
      await rigBin('curl'),
      '-sS',
      '--fail',
      '--max-time',
      '5',
      '--resolve',
      `${u.hostname}:${port}:${address}`,
      ...extra,
      url,
    ],
    { timeoutMs: 10_000 },
  );
  return r.code === 0 ? r.stdout.trim() : '';
}

/** A router's HTTP answer: its name and the Host it saw (`router-alpha for Host console…`). */
const routerAnswer = ['-w', ' for Host %header{x-request-host}'];

/** The CN of the certificate the server at ADDRESS:PORT presents for SNI; '' when the handshake fails. */
async function tlsPeer(ns: Netns, address: string, port: number, sni: string): Promise<string> {
  const r = await ns.exec(
    [await rigBin('openssl'), 's_client', '-connect', `${address}:${port}`, '-servername', sni, '-brief'],
    { input: '', timeoutMs: 8_000 },
  );
  return /CN\s*=\s*([^,\n]+)/.exec(`${r.stdout}\n${r.stderr}`)?.[1]?.trim() ?? '';
}

/** Fetches until an answer comes (bounded). */
async function fetchUntil(ctx: CheckContext, what: string, get: () => Promise<string>): Promise<string> {
  let body = '';
  await waitFor(
    what,
    async () => {
      body = await get();
      return body !== '';
    },
    { timeoutMs: 60_000, everyMs: 1000, signal: ctx.signal },
  );
  return body;
}

/** The VM's view: lease, the API name and a call to it, a *.apps name and its router's answer. */
export async function vmChecks(
  ctx: CheckContext & {
    readonly vlan: Network;
    readonly step: (what: string) => void;
    /** The VM's cluster: its name, domain and the CA of its apiserver. */
    readonly cluster: { readonly name: string; readonly domain: string; readonly caFile: string };
  },
): Promise<VmView> {
  const { scope, vlan, step, say, signal, cluster } = ctx;
  const vm: Netns = await scope.createNamespace(`vm-${cluster.name}-0`);
  await vlan.attach(vm, {});
  step('a VM on the VLAN asks for a DHCP lease (udhcpc)');
  let leased: Awaited<ReturnType<typeof dhcpLease>> | undefined;
  await waitFor(
    'a DHCP lease',
    async () => {
      leased = await dhcpLease(scope, vm, { client: 'udhcpc', timeoutSec: 10 }).catch(() => undefined);
      return leased?.ip !== undefined;
    },
    { timeoutMs: 120_000, everyMs: 1000, signal },
  );
  const lease = { ip: leased!.ip, router: leased!.vars.router, dns: leased!.vars.dns };
  say(`lease: ${lease.ip} router ${lease.router ?? '-'} dns ${lease.dns ?? '-'}`);
  const name = `api.${cluster.domain}`;
  const server = (lease.dns ?? '').split(/\s+/)[0] ?? '';
  step(`the VM resolves ${name} from the VLAN view (dig @${server})`);
  const dns = await resolve(ctx, vm, server, name);
  say(`dns: ${name} A ${dns.answers.join(', ')}`);
  const target = dns.answers[0]!;
  const url = `https://${name}:6443/version`;
  step(
    `the VM calls ${url} at ${target}, through Envoy by SNI (curl, verifying against ${cluster.name}'s CA)`,
  );
  const version = await fetchUntil(ctx, `an answer from ${url} through Envoy`, () =>
    fetchText(vm, url, target, ['--cacert', cluster.caFile]),
  );
  const gitVersion = (JSON.parse(version) as { gitVersion?: string }).gitVersion ?? '';
  say(`api: ${url} via ${target} -> ${cluster.name}'s kube-apiserver ${gitVersion}`);
  const apps = appsName(cluster.domain);
  step(`the VM resolves ${apps} from the VLAN view and asks for it over HTTP (curl)`);
  const appsDns = await resolve(ctx, vm, server, apps);
  const http = await fetchUntil(ctx, `an HTTP answer from ${apps}`, () =>
    fetchText(vm, `http://${apps}/`, appsDns.answers[0]!, routerAnswer),
  );
  say(`apps: ${apps} A ${appsDns.answers.join(', ')} -> ${http}`);
  return {
    lease,
    dns,
    api: { url, address: target, gitVersion },
    apps: { ...appsDns, http },
  };
}

/** The client pod's view: each cluster's *.apps name from the pod-network view, then HTTP and TLS through Envoy. */
export async function podChecks(
  ctx: CheckContext & {
    readonly podNet: Network;
    /** The pod's address ("a.b.c.d/len") and its default gateway. */
    readonly address: string;
    readonly gateway: string;
    /** The DNS Service and the proxy's Service, with the pod behind each (kube-proxy's part). */
    readonly dns: ServiceBackend;
    readonly proxy: ServiceBackend;
    readonly clusters: readonly { readonly name: string; readonly domain: string }[];
  },
): Promise<PodView> {
  const { scope, podNet, say } = ctx;
  const client = await startPodClient(scope, podNet, {
    address: ctx.address,
    gateway: ctx.gateway,
    backends: [ctx.dns, ctx.proxy],
  });
  const [server, proxy] = [ctx.dns, ctx.proxy].map(
    (b) => (b.service.spec as { clusterIP: string }).clusterIP,
  );
  say(`pod client: DNS ${server!} -> pod ${ctx.dns.podIP}, proxy ${proxy!} -> pod ${ctx.proxy.podIP} (DNAT)`);
  const clusters = [];
  for (const c of ctx.clusters) {
    const name = appsName(c.domain);
    const answer = await resolve(ctx, client, server!, name);
    const via = answer.answers[0]!;
    const http = await fetchUntil(ctx, `HTTP by Host ${name} through Envoy`, () =>
      fetchText(client, `http://${name}/`, via, routerAnswer),
    );
    const tls = await fetchUntil(ctx, `TLS by SNI ${name} through Envoy`, () =>
      tlsPeer(client, via, 443, name),
    );
    say(
      `pod: ${name} A ${answer.answers.join(', ')} (dig @${server})\n  http -> ${http}\n  tls  -> CN=${tls}`,
    );
    clusters.push({ ...answer, http, tls });
  }
  return { server: server!, proxy: proxy!, clusters };
}
