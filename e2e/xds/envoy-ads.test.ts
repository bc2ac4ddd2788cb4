// oooi-xds --from-file drives a real Envoy (the rig's 1.36.4) over ADS, state-of-the-world and delta, inside
// network namespaces: each SNI reaches its own openssl backend; the source-scoped kubernetes alias answers the
// allowed VM and refuses the other; an attachment added and removed goes live without dropping an established
// connection on another chain; an invalid spec is rejected by our validator (status says why) and Envoy keeps
// the last good config; Envoy never NACKs anything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProxyBackend } from '@oooi/api';
import { e2eEnv, rigBin, waitFor, type TrackedProc } from '@oooi/rig';
import {
  backend,
  envoyStats,
  openXdsLab,
  probe,
  startBackend,
  serveFromFile,
  writeProxyServer,
  ADMIN_PORT,
  ALLOWED_VM,
  type XdsLab,
} from './lab';

jest.setTimeout(240_000);

interface FileStatus {
  xds: Record<string, string>;
  configAccepted: { status: string; reason: string; message: string };
}

const base = [
  backend('alpha-api', 6443, 9001, { hostname: 'api.alpha.example.test' }),
  backend('bravo-api', 6443, 9002, { hostname: 'api.bravo.example.test' }),
  backend('alpha-oauth', 443, 9003, { hostname: 'oauth.alpha.example.test' }),
  backend('alpha-kubernetes-service', 6443, 9004, {
    hostname: 'kubernetes',
    sourcePrefixRanges: [`${ALLOWED_VM}/32`],
  }),
];
const charlie = backend('charlie-oauth', 443, 9005, { hostname: 'oauth.charlie.example.test' });

describe.each([
  { mode: 'state-of-the-world', delta: false },
  { mode: 'delta', delta: true },
])('oooi-xds + real Envoy ($mode)', ({ delta }) => {
  let lab: XdsLab;
  let envoy: TrackedProc;
  let xds: TrackedProc;
  let specFile: string;
  let statusFile: string;

  const status = (): FileStatus => JSON.parse(readFileSync(statusFile, 'utf8')) as FileStatus;
  const noNacks = async (): Promise<void> => {
    const s = await envoyStats(lab.proxy, ADMIN_PORT, 'update_rejected');
    expect(s).toEqual({
      'cluster_manager.cds.update_rejected': 0,
      'listener_manager.lds.update_rejected': 0,
    });
  };
  /** waitFor, with the status file in the error (so a failure says what oooi-xds reported). */
  const until = async (
    what: string,
    ok: () => boolean | Promise<boolean>,
    timeoutMs = 30_000,
  ): Promise<void> => {
    try {
      await waitFor(what, ok, { timeoutMs, everyMs: 100 });
    } catch (err) {
      throw new Error(`${String(err)}; status: ${readFileSync(statusFile, 'utf8')}`, { cause: err });
    }
  };
  const acked = async (version: string): Promise<void> =>
    waitFor(`Envoy ACKs ${version}`, () => status().xds.ackedVersion === version, {
      timeoutMs: 30_000,
      everyMs: 100,
    });
  /** Serves BACKENDS; waits until SNI on PORT, from the second VM, reaches EXPECTED, and Envoy ACKed it all. */
  const serve = async (
    backends: ProxyBackend[],
    want: { what: string; sni: string; port: number; expected: string },
  ): Promise<void> => {
    await writeProxyServer(specFile, backends);
    await until(want.what, async () => (await probe(lab.vm2, want.sni, want.port)) === want.expected);
    await acked(status().xds.desiredVersion!);
  };

  beforeAll(async () => {
    lab = await openXdsLab(e2eEnv().rig);
    for (const [i, name] of [
      'alpha-api',
      'bravo-api',
      'alpha-oauth',
      'alpha-kubernetes-service',
      'charlie-oauth',
    ].entries()) {
      await startBackend(lab, name, 9001 + i);
    }
    specFile = join(lab.scope.dir, 'proxyserver.yaml');
    statusFile = join(lab.scope.dir, 'status.json');
    await writeProxyServer(specFile, base);
    ({ xds, envoy } = await serveFromFile(lab, {
      specFile,
      statusFile,
      delta,
      label: delta ? 'delta' : 'sotw',
    }));
    await waitFor(
      'status file',
      () => {
        try {
          return status().xds.desiredVersion !== undefined;
        } catch {
          return false;
        }
      },
      { timeoutMs: 60_000, everyMs: 200 },
    );
    await acked(status().xds.desiredVersion!);
  });

  afterAll(async () => {
    await lab?.dispose();
  });

  test('each SNI reaches its own backend; unknown SNI is refused', async () => {
    expect(await probe(lab.vm2, 'api.alpha.example.test', 6443)).toBe('alpha-api');
    expect(await probe(lab.vm2, 'api.bravo.example.test', 6443)).toBe('bravo-api');
    expect(await probe(lab.vm2, 'oauth.alpha.example.test', 443)).toBe('alpha-oauth');
    expect(await probe(lab.vm2, 'nobody.example.test', 443)).toBe('refused');
    // a name is served on its own port only
    expect(await probe(lab.vm2, 'api.alpha.example.test', 443)).toBe('refused');
    expect(await probe(lab.vm2, 'oauth.alpha.example.test', 6443)).toBe('refused');
    await noNacks();
  });

  test('the source-scoped kubernetes alias answers the allowed VM only', async () => {
    expect(await probe(lab.vm1, undefined, 6443)).toBe('alpha-kubernetes-service');
    expect(await probe(lab.vm2, undefined, 6443)).toBe('refused');
    // in-cluster names fall through to the alias; names of routed backends still reach their own backend from
    // the alias's source (SNI routing does not let the source-only chain capture them)
    expect(await probe(lab.vm1, 'kubernetes.default.svc', 6443)).toBe('alpha-kubernetes-service');
    expect(await probe(lab.vm1, 'kubernetes.default.svc.cluster.local', 6443)).toBe(
      'alpha-kubernetes-service',
    );
    expect(await probe(lab.vm2, 'kubernetes.default.svc', 6443)).toBe('refused');
    expect(await probe(lab.vm1, 'api.bravo.example.test', 6443)).toBe('bravo-api');
    expect(await probe(lab.vm1, 'api.alpha.example.test', 6443)).toBe('alpha-api');
    await noNacks();
  });

  test('SNI-routed backends: a changed target goes live as a Cluster update, the Listeners are not resent', async () => {
    const lds = async (): Promise<number> =>
      (await envoyStats(lab.proxy, ADMIN_PORT, 'listener_manager.lds.update_success'))[
        'listener_manager.lds.update_success'
      ] ?? 0;
    const before = await lds();
    const moved = base.map((b) =>
      b.name === 'alpha-oauth'
        ? backend('alpha-oauth', 443, 9005, { hostname: 'oauth.alpha.example.test' })
        : b,
    );
    await serve([...moved, charlie], {
      what: 'oauth.alpha now served by the backend on 9005',
      sni: 'oauth.alpha.example.test',
      port: 443,
      expected: 'charlie-oauth',
    });
    await serve(base, {
      what: 'oauth.alpha back on its own backend',
      sni: 'oauth.alpha.example.test',
      port: 443,
      expected: 'alpha-oauth',
    });
    expect(await lds()).toBe(before);
    await noNacks();
  });

  test('adding and removing an attachment is live and keeps established connections on other chains', async () => {
    const openssl = await rigBin('openssl');
    const held = lab.vm2.spawn(
      [
        'bash',
        '-c',
        `while sleep 0.2; do echo tick-$(date +%s%N); done | ${openssl} s_client -connect 198.51.100.2:6443 -servername api.bravo.example.test -quiet`,
      ],
      { label: `held-${delta}` },
    );
    // bravo's s_server echoes each line reversed: the ticks coming back prove the connection carries data.
    const ticks = (): number => (held.log().match(/-kcit/g) ?? []).length;
    await waitFor('ticks echoed by bravo', () => ticks() > 2, { timeoutMs: 15_000, everyMs: 100 });
    expect(await probe(lab.vm2, 'oauth.charlie.example.test', 443)).toBe('refused');
    await serve([...base, charlie], {
      what: 'charlie live',
      sni: 'oauth.charlie.example.test',
      port: 443,
      expected: 'charlie-oauth',
    });
    await serve(base, {
      what: 'charlie gone',
      sni: 'oauth.charlie.example.test',
      port: 443,
      expected: 'refused',
    });
    const before = ticks();
    await waitFor('the held connection still carries data', () => ticks() > before + 2, {
      timeoutMs: 10_000,
      everyMs: 100,
    });
    expect(held.alive()).toBe(true);
    await held.stop();
    await noNacks();
  });

  test('an invalid spec is rejected before Envoy sees it; the last good config keeps serving', async () => {
    const good = status().xds.desiredVersion;
    const dup = backend('evil-api', 6443, 9001, { hostname: 'api.alpha.example.test' });
    await writeProxyServer(specFile, [...base, dup]);
    await until('validator rejects', () => status().configAccepted.reason === 'InvalidSpec');
    expect(status().configAccepted.message).toContain('evil-api');
    expect(status().configAccepted.message).toContain('alpha-api');
    expect(status().xds.desiredVersion).toBe(good);
    expect(await probe(lab.vm2, 'api.alpha.example.test', 6443)).toBe('alpha-api');
    await noNacks();
    await writeProxyServer(specFile, base);
    await until('accepted again', () => status().configAccepted.reason === 'Acked');
    expect(xds.alive() && envoy.alive()).toBe(true);
  });
});
