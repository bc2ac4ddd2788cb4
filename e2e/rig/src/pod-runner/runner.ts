// The pod runner: runs the containers of a Deployment's pod template as local processes inside one network
// namespace that holds the Multus static IP(s) the pod asks for, with its ConfigMap volumes materialised as
// files (and swapped atomically on updateConfigMap, as the kubelet does). See README.md "Pod runner".
// With `podman`, the containers whose image it maps (or pulls) run from that image instead (podman-container.ts):
// the volumes mounted at their mountPaths, the securityContexts applied, the ServiceAccount's token where the
// kubelet puts it.
import { chmod, cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAKE_NODE } from '../components';
import { checkInterfaceAddress, cidrContains, hostOf, intToIp, parseCidr } from '../net/addr';
import { bridgeLoopbackPort } from '../net/forward';
import { ipIn } from '../net/netns';
import type { NetScope } from '../net/scope';
import { writeAtomicDir } from './atomic';
import { loopbackApiPort } from './kubeconfig-port';
import { containerArgv, defaultImageMap } from './images';
import {
  mountMapping,
  volDir,
  type PodCtx,
  type RunningContainer,
  type RunningPod,
  type RunPodOptions,
} from './pod-ctx';
import { podmanImage, setUpInCluster, startPodmanContainer } from './podman-container';
import { planPod, rewritePaths, volumeFiles, type PathMapping } from './plan';
import {
  expandVars,
  MULTUS_ANNOTATION,
  parseNetworksAnnotation,
  secretSource,
  type ContainerPlan,
  type DeploymentLike,
} from './spec';

export type { PodmanRuntime, RunningContainer, RunningPod, RunPodOptions } from './pod-ctx';

/** Mount path → host path for every mount of every container (used to rewrite file contents). */
function podMappings(ctx: PodCtx): PathMapping[] {
  return ctx.plan.containers.flatMap((c) => c.mounts.map((m, i) => mountMapping(ctx, c, i)));
}

async function writeVolumes(ctx: PodCtx, only?: string): Promise<void> {
  const mappings = podMappings(ctx);
  const rewrite = ctx.opts.rewriteFileContents ?? true;
  for (const v of ctx.plan.volumes) {
    if (v.kind === 'emptyDir') {
      // world-writable, as the kubelet makes an emptyDir: any user of the pod may write there
      if (only === undefined) {
        await mkdir(volDir(ctx, v.name), { recursive: true });
        await chmod(volDir(ctx, v.name), 0o777);
      }
      continue;
    }
    if (v.kind === 'persistentVolumeClaim') {
      if (only === undefined) await claimVolume(ctx, v.name, v.claimName);
      continue;
    }
    if (only !== undefined && v.configMap !== only) continue;
    const files = volumeFiles(v, ctx.configMaps.get(v.configMap));
    if (rewrite) {
      for (const [p, f] of files) {
        const text = f.data.toString('utf8');
        if (Buffer.from(text, 'utf8').equals(f.data)) {
          files.set(p, { ...f, data: Buffer.from(rewritePaths(text, mappings), 'utf8') });
        }
      }
    }
    await writeAtomicDir(volDir(ctx, v.name), files);
  }
}

/**
 * A PersistentVolumeClaim is a directory of the scope, `claims/<namespace>/<claim>`, linked in as the volume: it
 * outlives the pod (a pod started again in the same scope finds what the last one wrote), as a bound volume does.
 */
async function claimVolume(ctx: PodCtx, volume: string, claim: string): Promise<void> {
  const target = join(ctx.scope.dir, 'claims', ctx.plan.namespace, claim);
  await mkdir(target, { recursive: true });
  await mkdir(join(ctx.dir, 'volumes'), { recursive: true });
  await rm(volDir(ctx, volume), { force: true }); // the link a previous pod of this name left
  await symlink(target, volDir(ctx, volume));
}

/** subPath mounts are copied once at start (the kubelet does not update them either). */
async function copySubPaths(ctx: PodCtx): Promise<void> {
  for (const c of ctx.plan.containers) {
    for (const [i, m] of c.mounts.entries()) {
      if (m.subPath === undefined) continue;
      const to = mountMapping(ctx, c, i).to;
      await mkdir(join(to, '..'), { recursive: true });
      await cp(join(volDir(ctx, m.volume), m.subPath), to, { recursive: true, dereference: true });
    }
  }
}

async function startContainer(ctx: PodCtx, c: ContainerPlan): Promise<RunningContainer> {
  const local = await podmanImage(ctx.opts.podman, c.image);
  if (local !== undefined) return startPodmanContainer(ctx, c, local);
  const images = ctx.opts.images ?? defaultImageMap();
  const rule = images.find((r) => r.match(c.image));
  if (rule === undefined) {
    throw new Error(`rig: no image rule runs ${c.image} (container ${c.name}); pass RunPodOptions.images`);
  }
  const mappings = c.mounts.map((_m, i) => mountMapping(ctx, c, i));
  const env = new Map<string, string>();
  for (const [k, v] of c.env) env.set(k, rewritePaths(expandVars(v, env), mappings));
  if (ctx.opts.kubeconfig !== undefined && !env.has('KUBECONFIG')) env.set('KUBECONFIG', ctx.opts.kubeconfig);
  const fix = (s: string): string => rewritePaths(expandVars(s, env), mappings);
  // Only what the container spec says is a container path; the entrypoint is a path on this machine (the repository
  // may itself live under a mountPath such as /tmp), so it is never rewritten.
  const argv = containerArgv(rule, await rule.entrypoint(), {
    command: c.command?.map(fix),
    args: c.args.map(fix),
  });
  const cwd = c.workingDir !== undefined ? fix(c.workingDir) : join(ctx.dir, 'rootfs');
  await mkdir(cwd.startsWith(ctx.dir) ? cwd : join(ctx.dir, 'rootfs'), { recursive: true });
  const fullEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(ctx.dir, 'rootfs'),
    HOSTNAME: ctx.plan.name,
  };
  const proc = ctx.ns.spawn(argv, {
    label: `${ctx.plan.name}-${c.name}`.slice(0, 60),
    logFile: join(ctx.dir, `${c.name}.log`),
    env: { ...fullEnv, ...Object.fromEntries(env) },
    cwd,
  });
  return { name: c.name, argv, env: Object.fromEntries(env), proc };
}

/**
 * A native sidecar's startupProbe, as the kubelet runs it before starting the next container: HTTP GET on the pod IP
 * from inside the pod's namespace, every 100 ms, until it answers 200 (bounded: 60 s, or the process exits).
 */
async function awaitStartup(
  ctx: PodCtx,
  c: RunningContainer,
  probe: { readonly path: string; readonly port: number },
): Promise<void> {
  const url = `http://${firstIp(ctx.opts, ctx.plan)}:${probe.port}${probe.path}`;
  const script = `fetch(${JSON.stringify(url)}).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!c.proc.alive())
      throw new Error(
        `rig: container ${c.name} exited before its startupProbe passed:\n${c.proc.log().slice(-2000)}`,
      );
    const r = await ctx.ns.exec([process.execPath, '-e', script], { timeoutMs: 5_000 });
    if (r.code === 0) return;
    if (Date.now() > deadline)
      throw new Error(`rig: container ${c.name}: startupProbe ${url} never answered 200 in 60 s`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function attachNetworks(ctx: PodCtx): Promise<void> {
  const { plan, opts, ns } = ctx;
  for (const [i, net] of plan.networks.entries()) {
    const vlan = opts.vlan;
    if (vlan === undefined) throw new Error(`rig: pod ${plan.name} asks for network ${net.name}; pass vlan`);
    if (net.ips.length === 0)
      throw new Error(`rig: pod ${plan.name}: network ${net.name} has no static "ips"`);
    // every address is checked (test ranges, the network's CIDR) before anything is configured
    for (const ip of net.ips) checkInterfaceAddress(ip, vlan.cidr);
    const ifname = net.interface ?? `net${i + 1}`;
    await vlan.attach(ns, { ifname, address: net.ips[0] });
    for (const extra of net.ips.slice(1)) await ipIn(ns.name, ['addr', 'add', extra, 'dev', ifname]);
  }
  if (opts.podNetwork !== undefined) {
    // As in a real pod, eth0 holds the default route (via `gateway`, by default the pod network's first address):
    // nothing the pod sends to an address off its networks may leave by the VLAN interface.
    const { network, address } = opts.podNetwork;
    await network.attach(ns, { ifname: 'eth0', address });
    const gw = opts.podNetwork.gateway ?? intToIp(parseCidr(network.cidr).base + 1);
    if (!cidrContains(network.cidr, gw))
      throw new Error(`rig: pod gateway ${gw} is not on the pod network ${network.cidr}`);
    if (hostOf(address) !== gw) await ipIn(ns.name, ['route', 'add', 'default', 'via', gw, 'dev', 'eth0']);
  }
  if (opts.kubeconfig !== undefined) {
    const port = await loopbackApiPort(opts.kubeconfig);
    if (port !== undefined) ctx.helpers.push(...(await bridgeLoopbackPort(ctx.scope, ns, port)));
  }
}

function firstIp(opts: RunPodOptions, plan: { networks: readonly { ips: readonly string[] }[] }): string {
  if (opts.podNetwork !== undefined) return hostOf(opts.podNetwork.address);
  const ip = plan.networks.find((n) => n.ips.length > 0)?.ips[0];
  return ip !== undefined ? hostOf(ip) : '127.0.0.1';
}

function nsLabel(name: string): string {
  const clean = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '');
  return `pod-${clean.slice(0, 18).replace(/-+$/, '') || 'x'}`;
}

/** Runs the Deployment's pod (one replica) inside a fresh namespace of SCOPE. */
export async function runPod(scope: NetScope, opts: RunPodOptions): Promise<RunningPod> {
  const d = opts.deployment as DeploymentLike;
  const networks = parseNetworksAnnotation(d.spec?.template?.metadata?.annotations?.[MULTUS_ANNOTATION]);
  const sources = [...(opts.configMaps ?? []), ...(opts.secrets ?? []).map(secretSource)];
  const configMaps = new Map(sources.map((c) => [c.metadata?.name ?? '', c]));
  const plan = planPod(d, [...configMaps.values()], {
    podIP: firstIp(opts, { networks }),
    nodeName: FAKE_NODE,
  });
  const dir = join(scope.dir, 'pods', plan.name);
  await mkdir(dir, { recursive: true });
  const ns = await scope.createNamespace(nsLabel(plan.name));
  const ctx: PodCtx = { scope, opts, plan, dir, ns, configMaps, helpers: [] };
  const containers: RunningContainer[] = [];
  const etcDir = join('/etc/netns', ns.name);
  const dispose = async (): Promise<void> => {
    await Promise.all(containers.splice(0).map((c) => c.proc.stop()));
    await Promise.all(ctx.helpers.splice(0).map((h) => h.stop()));
    await scope.deleteNamespace(ns);
    await rm(etcDir, { recursive: true, force: true });
  };
  try {
    if (opts.resolvConf !== undefined) {
      await mkdir(etcDir, { recursive: true });
      await writeFile(join(etcDir, 'resolv.conf'), opts.resolvConf);
    }
    await attachNetworks(ctx);
    if (opts.serviceAccount !== undefined) {
      if (opts.podman === undefined) throw new Error('rig: serviceAccount needs the podman runtime');
      await setUpInCluster(ctx, opts.serviceAccount);
    }
    await writeVolumes(ctx);
    await copySubPaths(ctx);
    for (const c of plan.containers) {
      const started = await startContainer(ctx, c);
      containers.push(started);
      if (c.startupProbe !== undefined) await awaitStartup(ctx, started, c.startupProbe);
    }
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    name: plan.name,
    namespace: plan.namespace,
    netns: ns,
    dir,
    podIP: firstIp(opts, { networks }),
    containers,
    container: (name) => {
      const c = containers.find((x) => x.name === name);
      if (c === undefined) throw new Error(`rig: pod ${plan.name} has no container ${name}`);
      return c;
    },
    restartContainer: async (name) => {
      const i = containers.findIndex((x) => x.name === name);
      const spec = plan.containers.find((x) => x.name === name);
      if (i < 0 || spec === undefined) throw new Error(`rig: pod ${plan.name} has no container ${name}`);
      if (containers[i]!.proc.alive())
        throw new Error(`rig: container ${name} of ${plan.name} is still running`);
      await containers[i]!.proc.stop();
      const next = await startContainer(ctx, spec);
      containers[i] = next;
      return next;
    },
    updateConfigMap: async (cm) => {
      const name = cm.metadata?.name;
      if (name === undefined) throw new Error('rig: updateConfigMap: metadata.name missing');
      configMaps.set(name, cm);
      await writeVolumes(ctx, name);
    },
    dispose,
  };
}
