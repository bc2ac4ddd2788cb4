// The pod runner's podman runtime, its effects: a container of the pod started from its image (a local one, or one
// pulled from a registry the caller names) with the argv podman.ts computes, its volumes at their mountPaths (the
// kubelet's fsGroup applied), and the in-cluster configuration of the pod's ServiceAccount.
import { chmod, chown, mkdir, readFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { bridgeLoopbackPort } from '../net/forward';
import { run } from '../proc';
import { mountMapping, type PodCtx, type PodmanRuntime, type RunningContainer } from './pod-ctx';
import { podmanRunArgv, type PodmanMount } from './podman';
import { expandVars, type ContainerPlan } from './spec';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The kubelet's fsGroup (SetVolumeOwnership): the volume's group is fsGroup, group-writable added to the mode it
 * has (an emptyDir stays world-writable), new files inheriting the group. A read-only volume (ConfigMap and Secret
 * volumes, which the kubelet also hands to SetVolumeOwnership) gets group-read instead: its files `| 0440`, its
 * directories `| 02550`, so a Secret written 0440 for the pod's fsGroup (oooi-dhcp's pair secret) is readable by
 * the pod's user, as under a real kubelet.
 */
async function applyFsGroup(dir: string, gid: number, readOnly: boolean): Promise<void> {
  await chown(dir, 0, gid);
  await chmod(dir, ((await stat(dir)).mode & 0o7777) | (readOnly ? 0o2550 : 0o2070));
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await applyFsGroup(p, gid, readOnly);
    else if (e.isFile()) {
      await chown(p, -1, gid);
      if (readOnly) await chmod(p, ((await stat(p)).mode & 0o7777) | 0o440);
    }
  }
}

/** The container's volumes at their mountPaths, its ServiceAccount's files and the pod's resolv.conf. */
async function podmanMounts(ctx: PodCtx, c: ContainerPlan): Promise<PodmanMount[]> {
  const mounts: PodmanMount[] = [];
  for (const [i, m] of c.mounts.entries()) {
    const vol = ctx.plan.volumes.find((v) => v.name === m.volume);
    const source = await realpath(mountMapping(ctx, c, i).to);
    if (ctx.plan.securityContext.fsGroup !== undefined) {
      await applyFsGroup(source, ctx.plan.securityContext.fsGroup, vol?.kind === 'configMap');
    }
    // ConfigMap volumes are read-only in every container, as the kubelet mounts them
    mounts.push({ source, target: m.mountPath, readOnly: m.readOnly === true || vol?.kind === 'configMap' });
  }
  if (ctx.inCluster !== undefined) mounts.push({ source: ctx.inCluster.dir, target: SA_DIR, readOnly: true });
  if (ctx.opts.resolvConf !== undefined) {
    mounts.push({
      source: join('/etc/netns', ctx.ns.name, 'resolv.conf'),
      target: '/etc/resolv.conf',
      readOnly: true,
    });
  }
  return mounts;
}

/** The local image that runs IMAGE: mapped to a local tag, or pulled from one of the `pull` registries. */
export async function podmanImage(rt: PodmanRuntime | undefined, image: string): Promise<string | undefined> {
  const local = rt?.image?.(image);
  if (local !== undefined || rt?.pull === undefined) return local;
  if (!rt.pull.registries.includes(image.split('/')[0] ?? '')) return undefined;
  const r = await run(['podman', 'pull', '--quiet', `--tls-verify=${String(rt.pull.tlsVerify)}`, image], {
    timeoutMs: 300_000,
  });
  if (r.code !== 0) throw new Error(`rig: podman pull ${image}: ${r.stderr.trim()}`);
  return image;
}

/** Starts container C of the pod from IMAGE (local) with podman in the pod's namespaces. */
export async function startPodmanContainer(
  ctx: PodCtx,
  c: ContainerPlan,
  image: string,
): Promise<RunningContainer> {
  const where = `spec.template.spec.containers[${ctx.plan.containers.indexOf(c)}]`;
  const env = new Map<string, string>();
  for (const [k, v] of c.env) env.set(k, expandVars(v, env));
  if (ctx.inCluster !== undefined) {
    env.set('KUBERNETES_SERVICE_HOST', ctx.inCluster.host);
    env.set('KUBERNETES_SERVICE_PORT', ctx.inCluster.port);
  }
  const fix = (s: string): string => expandVars(s, env);
  const mounts = await podmanMounts(ctx, c);
  const inspect = await run(['podman', 'image', 'inspect', '--format', '{{.Config.User}}', image]);
  if (inspect.code !== 0)
    throw new Error(`rig: podman has no image ${image} (container ${c.name}): ${inspect.stderr}`);
  const name = `${ctx.ns.name}-${c.name}`.slice(0, 63);
  await run(['podman', 'rm', '--force', '--ignore', name]); // a container of this name that a killed run left
  const argv = [
    'podman',
    ...podmanRunArgv({
      name,
      image,
      imageUser: inspect.stdout.trim(),
      netnsPath: join('/run/netns', ctx.ns.name),
      sharePid: ctx.plan.shareProcessNamespace,
      hostname: ctx.plan.name,
      ...(c.command !== undefined ? { command: c.command.map(fix) } : {}),
      args: c.args.map(fix),
      env: [...env],
      ...(c.workingDir !== undefined ? { workingDir: fix(c.workingDir) } : {}),
      mounts,
      pod: ctx.plan.securityContext,
      container: c.securityContext ?? {},
      where,
    }),
  ];
  const proc = ctx.scope.spawn(argv, {
    label: `${ctx.plan.name}-${c.name}`.slice(0, 60),
    logFile: join(ctx.dir, `${c.name}.log`),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
  });
  const stop = async (): Promise<void> => {
    await proc.stop();
    await run(['podman', 'rm', '--force', '--ignore', name]);
  };
  return { name: c.name, argv, env: Object.fromEntries(env), proc: { ...proc, stop }, podman: name, image };
}

/** The ServiceAccount's files and the apiserver's address inside the pod (its loopback port bridged in). */
export async function setUpInCluster(ctx: PodCtx, kubeconfig: string): Promise<void> {
  const kc = parseYaml(await readFile(kubeconfig, 'utf8')) as {
    'current-context'?: string;
    contexts?: { name: string; context: { cluster: string; user: string } }[];
    clusters?: { name: string; cluster: { server: string; 'certificate-authority-data'?: string } }[];
    users?: { name: string; user: { token?: string } }[];
  };
  const cur = kc.contexts?.find((c) => c.name === kc['current-context'])?.context;
  const cluster = kc.clusters?.find((c) => c.name === cur?.cluster)?.cluster;
  const token = kc.users?.find((u) => u.name === cur?.user)?.user.token;
  if (
    cluster?.server === undefined ||
    cluster['certificate-authority-data'] === undefined ||
    token === undefined
  ) {
    throw new Error(`rig: ${kubeconfig}: want a server, certificate-authority-data and a token`);
  }
  const dir = join(ctx.dir, 'serviceaccount');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'token'), token);
  await writeFile(join(dir, 'ca.crt'), Buffer.from(cluster['certificate-authority-data'], 'base64'));
  await writeFile(join(dir, 'namespace'), ctx.plan.namespace);
  const u = new URL(cluster.server);
  const port = u.port || '443';
  if (['127.0.0.1', 'localhost'].includes(u.hostname)) {
    ctx.helpers.push(...(await bridgeLoopbackPort(ctx.scope, ctx.ns, Number(port))));
  }
  ctx.inCluster = { dir, host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname, port };
}
