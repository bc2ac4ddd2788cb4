// `rig up`: a throw-away control plane on loopback — PKI, etcd, kube-apiserver, the CRDs (before the
// controller-manager, whose garbage collector learns resource types only every 30 s), controller-manager,
// scheduler, kwok and one fake node — returning when all of it is ready.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rigBin } from './bins';
import {
  componentSpec,
  FAKE_NODE,
  fakeNode,
  portNames,
  type ComponentInputs,
  type Ports,
} from './components';
import { runDir } from './config';
import { defaultCrdDirs, installCrds } from './crds';
import { apiCall, applyObject, getJson, type ApiTarget } from './kubeapi';
import { adminKubeconfig, makePki, pkiPaths } from './pki';
import { stopProcess, waitFor, type ProcRef } from './proc';
import {
  defaultPickPorts,
  pickChecked,
  startComponents,
  startFresh,
  type Launch,
  type PickPorts,
} from './start';
import { downUnlocked } from './down';
import {
  allAlive,
  componentNames,
  readState,
  withRunLock,
  writeState,
  type ComponentName,
  type RunState,
} from './state';

/** A running control plane. */
export interface Rig {
  readonly name: string;
  /** Its state directory ($CACHE/run/<name>): logs, PKI, etcd data, state.json. */
  readonly dir: string;
  /** Admin kubeconfig (certificates embedded). */
  readonly kubeconfig: string;
  /** https://127.0.0.1:PORT */
  readonly server: string;
}

export interface RigUpOptions {
  readonly name: string;
  /** Directories of CRD YAML to install; default `defaultCrdDirs()` (the repo's crds/ + e2e/third-party-crds). */
  readonly crdDirs?: readonly string[];
  /** Extra DNS names in the apiserver's serving certificate (besides localhost, 127.0.0.1 and kubernetes…). */
  readonly servingNames?: readonly string[];
  /** The process this run belongs to (the e2e sweep stops runs whose owner is gone). */
  readonly owner?: ProcRef;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
  /**
   * Chooses the run's ports (default: free ports below the ephemeral range, `freePorts`). Called once for all
   * ports, and again for the ports of a component that lost one of them to another process.
   */
  readonly pickPorts?: PickPorts;
}

interface Prepared {
  readonly state: RunState;
  readonly launch: Launch;
}

const READY_TIMEOUT_MS = 60_000;

export function rigOf(s: RunState): Rig {
  return { name: s.name, dir: s.dir, kubeconfig: s.kubeconfig, server: s.server };
}

/** The target for the rig's own API calls. */
export function apiTarget(s: RunState): ApiTarget {
  return { server: s.server, pki: pkiPaths(join(s.dir, 'pki')) };
}

async function prepare(opts: RigUpOptions, log: (line: string) => void): Promise<Prepared> {
  const dir = runDir(opts.name);
  await mkdir(dir, { recursive: true });
  const pickPorts = opts.pickPorts ?? defaultPickPorts;
  const [bins, pki, chosen] = await Promise.all([
    resolveBins(),
    makePki(join(dir, 'pki'), opts.servingNames),
    pickChecked(pickPorts, portNames, []),
  ]);
  const ports = Object.fromEntries(portNames.map((n, i) => [n, chosen[i] ?? 0])) as Ports;
  const server = `https://127.0.0.1:${ports.apiserver}`;
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, await adminKubeconfig(pki, server, `oooi-rig-${opts.name}`), { mode: 0o600 });
  const inputs: ComponentInputs = { dir, ports, pki, kubeconfig, bins };
  const components = Object.fromEntries(componentNames.map((n) => [n, componentSpec(n, inputs)]));
  const state: RunState = {
    name: opts.name,
    dir,
    kubeconfig,
    server,
    ports: { ...ports },
    components,
    ...(opts.owner !== undefined ? { owner: opts.owner } : {}),
    createdAt: new Date().toISOString(),
  };
  writeState(state);
  return { state, launch: { inputs, pickPorts, log } };
}

async function resolveBins(): Promise<ComponentInputs['bins']> {
  const etcd = await rigBin('etcd');
  const apiserver = await rigBin('kube-apiserver');
  const kcm = await rigBin('kube-controller-manager');
  const scheduler = await rigBin('kube-scheduler');
  const kwok = await rigBin('kwok');
  const stages = await rigBin('kwok-stages');
  return { etcd, apiserver, kcm, scheduler, kwok, stages };
}

function nodeReady(node: unknown): boolean {
  const conds = (node as { status?: { conditions?: { type?: string; status?: string }[] } } | undefined)
    ?.status?.conditions;
  return (conds ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

async function boot(p: Prepared, opts: RigUpOptions): Promise<RunState> {
  let { state: s, launch } = p;
  const stage = async (names: readonly ComponentName[]): Promise<void> => {
    ({ state: s, launch } = await startFresh(s, names, launch));
  };
  await stage(['etcd']);
  await stage(['apiserver']);
  launch.log(`apiserver ready at ${s.server}`);
  const t = apiTarget(s);
  const crds = await installCrds(t, opts.crdDirs ?? defaultCrdDirs());
  launch.log(`${crds.length} CRDs established`);
  await stage(['controller-manager', 'scheduler', 'kwok']);
  await applyObject(t, `/api/v1/nodes/${FAKE_NODE}`, fakeNode(FAKE_NODE));
  await waitFor(
    `node ${FAKE_NODE} Ready`,
    async () => nodeReady(await getJson(t, `/api/v1/nodes/${FAKE_NODE}`)),
    {
      timeoutMs: READY_TIMEOUT_MS,
    },
  );
  const sa = '/api/v1/namespaces/default/serviceaccounts/default';
  await waitFor('the default ServiceAccount', async () => (await getJson(t, sa)) !== undefined, {
    timeoutMs: READY_TIMEOUT_MS,
  });
  launch.log('ready');
  return s;
}

async function dropNodeLease(t: ApiTarget): Promise<void> {
  const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${FAKE_NODE}`;
  const res = await apiCall(t, { method: 'DELETE', path });
  if (res.status !== 200 && res.status !== 404) {
    throw new Error(
      `rig: deleting the lease of ${FAKE_NODE} answered ${res.status}: ${res.body.slice(0, 300)}`,
    );
  }
}

/**
 * Starts control plane NAME, or returns it when it is already running. A run with dead components is torn
 * down and started afresh. Ports are chosen now; everything listens on 127.0.0.1.
 */
export function rigUp(opts: RigUpOptions): Promise<Rig> {
  return withRunLock(opts.name, async () => {
    const existing = readState(opts.name);
    if (existing !== undefined && allAlive(existing)) return rigOf(existing);
    if (existing !== undefined || existsSync(runDir(opts.name))) {
      opts.log?.(`rig ${opts.name}: found a stale run; removing it first`);
      await downUnlocked(opts.name);
    }
    const t0 = Date.now();
    const log = (m: string): void =>
      opts.log?.(`rig ${opts.name}: ${m} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
    const prepared = await prepare(opts, log);
    try {
      return rigOf(await boot(prepared, opts));
    } catch (err) {
      await downUnlocked(opts.name);
      throw err;
    }
  });
}

/** Restarts one component of a running control plane with its recorded command line (same ports and flags). */
export function rigRestart(name: string, component: ComponentName): Promise<void> {
  return withRunLock(name, async () => {
    const s = readState(name);
    if (s === undefined) throw new Error(`rig: no run named "${name}"`);
    const c = s.components[component];
    if (c?.proc !== undefined) await stopProcess(c.proc);
    // a new kwok (new holder identity) would wait for the dead one's node lease to expire (40 s) before it
    // manages the node again: the old holder is gone, so drop its lease
    if (component === 'kwok') await dropNodeLease(apiTarget(s));
    await startComponents(s, [component]);
    if (component === 'kwok') {
      const t = apiTarget(s);
      await waitFor(
        'fake node Ready',
        async () => nodeReady(await getJson(t, `/api/v1/nodes/${FAKE_NODE}`)),
        {
          timeoutMs: READY_TIMEOUT_MS,
        },
      );
    }
  });
}
