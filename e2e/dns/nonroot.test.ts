// The generated securityContext, applied to real CoreDNS: the DNS pod binds port 53 as UID 65532 with every
// capability dropped but NET_BIND_SERVICE (bounding set only) and no privilege escalation, because the pod sets
// the namespaced sysctl net.ipv4.ip_unprivileged_port_start. The contexts are turned into `setpriv` arguments
// and the sysctl is set inside a namespace of our own, so the checks below run the real binary under them:
// - with the generated context, CoreDNS serves on :53 (and without the sysctl it cannot: the sysctl does it);
// - a copy carrying the upstream image's file capability (cap_net_bind_service=+ep) still execs under it, while
//   dropping NET_BIND_SERVICE from the bounding set makes the kernel refuse to exec it (why `add` is kept).
import { chmod, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2eEnv, openNetScope, rigBin, run, type NetScope, type Netns, type TrackedProc } from '@oooi/rig';
import { COREFILE_KEY, planDnsServer } from './dns-api';
import { ask } from './lab';
import { dnsServerFor } from './reference';

jest.setTimeout(120_000);

interface SecurityContexts {
  pod: { runAsUser: number; runAsGroup: number; sysctls?: { name: string; value: string }[] };
  container: { allowPrivilegeEscalation: boolean; capabilities: { drop: string[]; add?: string[] } };
}

const r = planDnsServer(
  dnsServerFor({ namespace: 'clusters', clusters: ['alpha'], upstream: '203.0.113.53' }),
);
if (!r.ok) throw new Error(JSON.stringify(r.errors));
const podSpec = (r.value.children.deployment.spec as { template: { spec: Record<string, unknown> } }).template
  .spec;
const generated: SecurityContexts = {
  pod: podSpec.securityContext as SecurityContexts['pod'],
  container: (podSpec.containers as { securityContext: SecurityContexts['container'] }[])[0]!.securityContext,
};

/** `setpriv` arguments for a container under CTX (what a runtime does for a non-root user, minus namespaces). */
function setprivArgs(ctx: SecurityContexts): string[] {
  const keep = (ctx.container.capabilities.add ?? []).map((c) => `+${c.toLowerCase()}`);
  return [
    'setpriv',
    `--reuid=${ctx.pod.runAsUser}`,
    `--regid=${ctx.pod.runAsGroup}`,
    '--clear-groups',
    '--inh-caps=-all',
    `--bounding-set=${['-all', ...keep].join(',')}`,
    ...(ctx.container.allowPrivilegeEscalation ? [] : ['--nnp']),
  ];
}

let scope: NetScope;
let work: string;
let plain: string;
let withFileCap: string;

beforeAll(async () => {
  scope = openNetScope(e2eEnv().rig);
  // a directory UID 65532 can read: the binary copies and the rendered files
  work = await mkdtemp(join(tmpdir(), 'oooi-dns-nonroot-'));
  await chmod(work, 0o755);
  plain = join(work, 'coredns');
  withFileCap = join(work, 'coredns-fcap');
  await copyFile(await rigBin('coredns'), plain);
  await copyFile(plain, withFileCap);
  await chmod(plain, 0o755);
  await chmod(withFileCap, 0o755);
  await run(['setcap', 'cap_net_bind_service=+ep', withFileCap], { timeoutMs: 10_000 }).then((res) => {
    if (res.code !== 0) throw new Error(`setcap failed: ${res.stderr}`);
  });
  for (const [name, text] of Object.entries(r.value.files)) {
    await writeFile(join(work, name), text);
    await chmod(join(work, name), 0o644);
  }
});

afterAll(async () => {
  await scope?.dispose();
  if (work) await rm(work, { recursive: true, force: true });
});

async function namespaceWith(sysctls: { name: string; value: string }[]): Promise<Netns> {
  const ns = await scope.createNamespace('nonroot');
  for (const s of sysctls) {
    const res = await ns.exec(['sysctl', '-w', `${s.name}=${s.value}`]);
    if (res.code !== 0) throw new Error(`sysctl ${s.name}: ${res.stderr}`);
  }
  return ns;
}

/** Starts CoreDNS under CTX in NS; resolves to how it ended up: serving, or its exit code and log. */
async function startUnder(
  ns: Netns,
  ctx: SecurityContexts,
  binary: string,
): Promise<{ serving: boolean; proc: TrackedProc }> {
  const proc = ns.spawn([...setprivArgs(ctx), binary, '-conf', COREFILE_KEY], {
    label: 'nonroot',
    cwd: work,
  });
  for (let i = 0; i < 50; i++) {
    if (!proc.alive()) return { serving: false, proc };
    if ((await ask(ns, '127.0.0.1', 'api.alpha.example.com')).status !== 'TIMEOUT')
      return { serving: true, proc };
    await new Promise((res) => setTimeout(res, 200));
  }
  return { serving: false, proc };
}

test('the generated context is non-root, drops all capabilities but NET_BIND_SERVICE, sets the port sysctl', () => {
  expect(generated.pod).toMatchObject({ runAsUser: 65532, runAsGroup: 65532 });
  expect(generated.pod.sysctls).toEqual([{ name: 'net.ipv4.ip_unprivileged_port_start', value: '53' }]);
  expect(generated.container).toMatchObject({
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
  });
});

test('CoreDNS serves port 53 as UID 65532 under the generated context', async () => {
  const ns = await namespaceWith(generated.pod.sysctls ?? []);
  const { serving, proc } = await startUnder(ns, generated, plain);
  expect({ serving, log: serving ? '' : proc.log() }).toEqual({ serving: true, log: '' });
  const uid = (await run(['ps', '-o', 'uid=', '-p', String(proc.ref.pid)])).stdout.trim();
  expect(uid).toBe('65532');
  await proc.stop();
});

test('without the sysctl the same process cannot bind 53 (the sysctl is what lets it)', async () => {
  const ns = await namespaceWith([]);
  const { serving, proc } = await startUnder(ns, generated, plain);
  expect(serving).toBe(false);
  expect(proc.log()).toMatch(/permission denied/);
});

test("the upstream image's file capability execs under the generated context, not with NET_BIND_SERVICE dropped", async () => {
  const ns = await namespaceWith(generated.pod.sysctls ?? []);
  const ok = await startUnder(ns, generated, withFileCap);
  expect(ok.serving).toBe(true);
  await ok.proc.stop();
  const dropAll: SecurityContexts = {
    ...generated,
    container: { ...generated.container, capabilities: { drop: ['ALL'] } },
  };
  const refused = await startUnder(await namespaceWith(generated.pod.sysctls ?? []), dropAll, withFileCap);
  expect(refused.serving).toBe(false);
  expect(refused.proc.log()).toMatch(/Operation not permitted|permission denied/i);
});
