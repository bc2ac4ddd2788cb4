// The Dockerfiles without a container engine (the unit project), in two ways. A lint reads every Dockerfile (each
// one `scripts/images.sh list` names, and it names every Dockerfile.* there is): multi-stage, every base pinned by
// an exact version tag or a digest (a build argument's default), a shell-less runtime stage FROM scratch, no ADD
// and nothing secret-looking, OCI labels, its capabilities and probes stated; a Node image runs as a non-root
// numeric USER, oooi-keepalived as root with exactly the capabilities the proxy HA pod gives it. Then each bundle is built exactly as the build
// stage builds it (its `pnpm --filter … bundle` RUN line), the files the runtime stage COPYs are put alone in a
// directory standing for /app, and the ENTRYPOINT is run from there with its own node flags.
// Here every entrypoint answers `--help` (the layout is scripts/image-app.ts). The real runs: the controller's
// bundle reconciles on the rig under the chart's account (e2e/chart/install.test.ts); the oooi-dhcp bundle serves
// a real DHCP client and the oooi-xds bundle a real Envoy (e2e/images/bundles.test.ts). The images themselves,
// built by scripts/images.sh, run as their pods would in e2e/images/*-container.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { planProxyServer } from '@oooi/controller';
import { imageApp, readImage } from './image-app';

const root = join(__dirname, '..');

/** `images.sh list`: NAME DOCKERFILE KIND, one image a line. */
const listed = execFileSync(join(root, 'scripts/images.sh'), ['list'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((l) => {
    const [name = '', file = '', kind = ''] = l.split(/\s+/);
    return { name, file, kind };
  });

test('images.sh list names every Dockerfile.* of the repository once, with its kind', () => {
  const files = readdirSync(root).filter((f) => f.startsWith('Dockerfile.'));
  expect(listed.map((l) => l.file).sort()).toEqual(files.sort());
  expect(listed.map((l) => `${l.name} ${l.kind}`)).toEqual([
    'controller node',
    'dhcp node',
    'xds node',
    'keepalived deb',
  ]);
  for (const l of listed) expect(l.file).toBe(`Dockerfile.${l.name}`);
});

interface Row {
  readonly file: string;
  readonly pkg: string;
  /** What the entrypoint does with `--help` today. */
  readonly help: { readonly code: number; readonly output: RegExp };
}

const rows: Row[] = [
  { file: 'Dockerfile.controller', pkg: 'controller', help: { code: 0, output: /Usage: oooi-controller/ } },
  { file: 'Dockerfile.dhcp', pkg: 'dhcp', help: { code: 0, output: /Usage: oooi-dhcp/ } },
  { file: 'Dockerfile.xds', pkg: 'xds', help: { code: 0, output: /Usage: oooi-xds/ } },
];

const secretish = /(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|CREDENTIAL)/i;
const ociLabels = ['title', 'description', 'source', 'licenses', 'version'].map(
  (k) => `org.opencontainers.image.${k}`,
);

describe.each(listed)('$file (lint)', ({ file, kind }) => {
  const { text, steps, froms, finalStage } = readImage(file);

  test('lint: multi-stage, every base pinned by an exact version tag or a digest', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    // a base named by a build argument is pinned by the argument's default (declared before the first FROM)
    const args = new Map(
      steps
        .slice(0, steps.indexOf(froms[0]!))
        .filter((s) => s.op === 'ARG' && s.args.includes('='))
        .map((s) => [s.args.split('=')[0]!, s.args.slice(s.args.indexOf('=') + 1)] as const),
    );
    const stages = new Set(froms.map((f) => /\sAS\s+(\S+)$/i.exec(f.args)?.[1]).filter(Boolean));
    for (const f of froms) {
      const image = f.args.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$/, (_, v: string) => args.get(v) ?? '');
      if (image === 'scratch' || stages.has(image)) continue;
      expect(image).toMatch(
        /^[^:@\s]+(:[A-Za-z0-9._-]*\d+\.\d+\.\d+[A-Za-z0-9._-]*)?(@sha256:[0-9a-f]{64})?$/,
      );
      expect(image).toMatch(/:[^/]*\d+\.\d+\.\d+|@sha256:/);
    }
  });

  test('the runtime stage is FROM scratch: the rootfs stage’s files, no shell', () => {
    expect(froms[froms.length - 1]!.args).toBe('scratch');
    const rootfs = steps.slice(steps.findIndex((s) => s.op === 'FROM' && / AS rootfs$/i.test(s.args)));
    // a Node image's root filesystem is scripts/runtime-rootfs.sh's; keepalived's stage copies its own binary
    if (kind === 'node')
      expect(rootfs.find((s) => s.op === 'RUN')?.args).toMatch(/runtime-rootfs\.sh \/rootfs$/);
    expect(finalStage.filter((s) => s.op === 'COPY').map((s) => s.args)[0]).toBe('--from=rootfs /rootfs/ /');
    expect(finalStage.filter((s) => s.op === 'RUN')).toEqual([]);
  });

  test('lint: a Node image runs as a numeric non-root user; a deb image says why not', () => {
    const user = finalStage.filter((s) => s.op === 'USER').pop();
    if (kind === 'node') expect(user?.args).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    // keepalived adds and removes an address and sends VRRP: root, with only NET_ADMIN and NET_RAW (below)
    else expect(text).toMatch(/^# Capabilities: NET_ADMIN .* NET_RAW .* as root;/m);
  });

  test('lint: no ADD, no secret-looking ARG/ENV, no credential files copied', () => {
    expect(steps.filter((s) => s.op === 'ADD')).toEqual([]);
    const vars = steps.filter((s) => s.op === 'ARG' || s.op === 'ENV').map((s) => s.args.split(/[=\s]/)[0]!);
    expect(vars.filter((v) => secretish.test(v))).toEqual([]);
    const copied = steps.filter((s) => s.op === 'COPY').map((s) => s.args);
    expect(copied.filter((c) => /\.npmrc|\.pem\b|\.key\b|id_rsa|kubeconfig/.test(c))).toEqual([]);
  });

  test('lint: OCI labels, and its capabilities and probes stated', () => {
    const labels = finalStage
      .filter((s) => s.op === 'LABEL')
      .map((s) => s.args)
      .join(' ');
    for (const l of ociLabels) expect(labels).toContain(`${l}=`);
    expect(text).toMatch(/^# Capabilities: /m);
    expect(steps.some((s) => s.op === 'HEALTHCHECK') || /^# Probes: /m.test(text)).toBe(true);
  });
});

describe.each(rows)('$file (its Node app)', ({ file, pkg, help }) => {
  const { steps, entrypoint, copies } = readImage(file);

  test('the build stage bundles the package; the runtime stage copies only that one file (and its map)', () => {
    const runs = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.some((r) => r.includes(`pnpm --filter @oooi/${pkg} bundle`))).toBe(true);
    const bundleScript = (
      JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts.bundle;
    const out = /bundle\.mjs \S+ (\S+)$/.exec(bundleScript ?? '')?.[1];
    expect(copies).toEqual([`/src/packages/${pkg}/${out}`, `/src/packages/${pkg}/${out}.map`]);
    expect(entrypoint).toEqual(['node', '--enable-source-maps', `/app/${basename(out ?? '')}`]);
  });

  test('the bundle, built as the Dockerfile builds it, runs alone with the entrypoint (--help)', () => {
    const app = imageApp(file, pkg);
    try {
      const res = spawnSync(app.argv[0]!, [...app.argv.slice(1), '--help'], {
        cwd: app.dir,
        env: { PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect({ code: res.status, output: `${res.stdout}${res.stderr}` }).toEqual({
        code: help.code,
        output: expect.stringMatching(help.output),
      });
    } finally {
      app.dispose();
    }
  }, 120_000);
});

test('.dockerignore keeps local node_modules and bundles out of the build context', () => {
  const ignore = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
  expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '**/dist']));
});

describe('Dockerfile.keepalived and the proxy HA pod that runs it', () => {
  const { text, entrypoint } = readImage('Dockerfile.keepalived');
  const keepalived = (() => {
    const r = planProxyServer(
      {
        apiVersion: 'hostedcluster.densityops.com/v1alpha1',
        kind: 'ProxyServer',
        metadata: { name: 'edge', namespace: 'ns', uid: 'u1' },
        spec: {
          networkConfig: {
            cidr: '198.51.100.0/24',
            serverIP: '198.51.100.4',
            networkAttachmentName: 'vlan',
            highAvailability: { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 },
          },
          backends: [],
        },
      } as unknown as Parameters<typeof planProxyServer>[0],
      {},
    );
    if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    const pod = (r.value.children.deployment.spec as { template: { spec: { containers: unknown[] } } })
      .template.spec;
    return pod.containers.find((c) => (c as { name: string }).name === 'keepalived') as {
      image: string;
      command: string[];
      securityContext: { runAsUser?: number; capabilities?: { add?: string[]; drop?: string[] } };
    };
  })();

  test('the pod’s default image is oooi-keepalived, its command the image’s entrypoint', () => {
    expect(keepalived.image).toMatch(/\/oooi-keepalived:/);
    expect(keepalived.command).toEqual(entrypoint);
  });

  test('the pod runs it as root with exactly the capabilities the Dockerfile states', () => {
    const stated = /^# Capabilities: (.*)$/m.exec(text)?.[1]?.match(/\bNET_[A-Z]+\b/g);
    expect(keepalived.securityContext.runAsUser).toBe(0);
    expect(keepalived.securityContext.capabilities).toEqual({ add: stated, drop: ['ALL'] });
  });
});
