// bench/images's measures (it runs this file; bench/ imports nothing from e2e/): start-to-ready of each image and
// of its slim-based variant (`images.sh build --slim`), run by the rig's pod runner with podman (runc) exactly as
// its pod runs it, ROUNDS rounds interleaving the variants; prints {"<image>/<variant>": [ms…], …} as JSON. Each
// measure starts the clock just before `runPod` (the container's creation included, as a kubelet's would be) and
// stops it at the first sign of the image doing its job:
// - controller: the first reconcile of examples/ (applied before the start) against a fresh rig apiserver with the
//   chart installed: the Infra `vlan100` Ready, under a TokenRequest token of the chart's ServiceAccount.
// - oooi-dhcp: its readiness (/readyz 200 on the pod IP, polled every 50 ms: serving on the VLAN), then the first
//   lease udhcpc gets from it (reported beside it; a DHCP client's own retry timing is part of that one).
// - oooi-xds: the proxy pod of e2e/proxy/proxy-lab.ts (real Envoy beside it): its /readyz 200, which the sidecar
//   answers only once Envoy is LIVE (it accepted the first configuration the sidecar sent) and holds the ADS stream.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { DHCPServer } from '@oooi/api';
import { builtinImages, DeploymentKind, planDhcpServer } from '@oooi/controller';
import { KubeClient, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import {
  dhcpLease,
  openNetScope,
  repoRoot,
  rigBin,
  rigDown,
  rigUp,
  runPod,
  waitFor,
  type PodmanRuntime,
  type RunningPod,
} from '@oooi/rig';
import { applyExamples, chartDir, helmOk, infraReady, writeTokenKubeconfig } from '../chart/chart-support';
import { exampleIn, openDhcpNet, POD_ADDRESS, POD_GATEWAY, type DhcpNet } from '../dhcp/controller-lab';
import { openProxyWorld, runProxyPod } from '../proxy/proxy-lab';
import { builtImages } from './built';

/** Milliseconds since T0. */
const since = (t0: number) => Date.now() - t0;

/** The controller's start to its first reconcile of examples/ (a fresh apiserver per measure). */
async function controllerReady(podman: PodmanRuntime, runName: string): Promise<number> {
  const rig = await rigUp({ name: runName, crdDirs: [join(repoRoot, 'e2e/third-party-crds')] });
  const scope = openNetScope(runName);
  let pod: RunningPod | undefined;
  try {
    const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
    const admin = new KubeClient({ rest, fieldManager: 'bench-admin' });
    await helmOk(['install', 'oooi', chartDir, '-n', 'oooi-system', '--create-namespace'], rig.kubeconfig);
    const deployment = await admin.get(DeploymentKind, { namespace: 'oooi-system', name: 'oooi' });
    const sa = (deployment?.spec as { template: { spec: { serviceAccountName: string } } }).template.spec
      .serviceAccountName;
    const token = await rest.request<{ status: { token: string } }>({
      method: 'POST',
      path: `/api/v1/namespaces/oooi-system/serviceaccounts/${sa}/token`,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      },
    });
    const kubeconfig = writeTokenKubeconfig(
      rig.kubeconfig,
      token.status.token,
      join(scope.dir, 'sa.kubeconfig'),
    );
    await applyExamples(admin);
    const t0 = Date.now();
    pod = await runPod(scope, { deployment, podman, serviceAccount: kubeconfig });
    await waitFor(
      'the Infra Ready',
      async () => {
        const proc = pod!.container('controller').proc;
        if (!proc.alive()) throw new Error(`controller exited:\n${proc.log().slice(-3000)}`);
        return infraReady(admin, 'clusters', 'vlan100');
      },
      { timeoutMs: 120_000, everyMs: 50 },
    );
    return since(t0);
  } finally {
    await pod?.dispose();
    await scope.dispose();
    await rigDown(rig.name);
  }
}

interface DhcpBench {
  readonly net: DhcpNet;
  /** Start to /readyz, and start to the first lease. */
  measure(podman: PodmanRuntime): Promise<{ readyMs: number; leaseMs: number }>;
}

/** oooi-dhcp as examples/dhcpserver.yaml renders it, offline (no API: the example serves unknown clients). */
async function dhcpBench(): Promise<DhcpBench> {
  const obj = exampleIn('bench-images', 'bench-images-vms') as unknown as DHCPServer;
  const rendered = planDhcpServer(obj, { defaultImage: builtinImages.dhcpServer });
  if (!rendered.ok) throw new Error('examples/dhcpserver.yaml does not render');
  const { deployment, configMap } = rendered.value.children;
  const net = await openDhcpNet();
  const curl = await rigBin('curl');
  let round = 0;
  return {
    net,
    measure: async (podman) => {
      const t0 = Date.now();
      const pod = await runPod(net.scope, {
        deployment,
        configMaps: [configMap],
        vlan: net.vlan,
        podNetwork: { network: net.pod, address: POD_ADDRESS, gateway: POD_GATEWAY },
        podman,
      });
      try {
        await waitFor(
          'oooi-dhcp /readyz',
          async () => {
            const proc = pod.container('oooi-dhcp').proc;
            if (!proc.alive()) throw new Error(`oooi-dhcp exited:\n${proc.log().slice(-3000)}`);
            return (await pod.netns.exec([curl, '-sf', 'http://203.0.113.10:8081/readyz'])).code === 0;
          },
          { timeoutMs: 60_000, everyMs: 50 },
        );
        const readyMs = since(t0);
        const vm = await net.scope.createNamespace(`vm-${round++}`);
        await net.vlan.attach(vm);
        await dhcpLease(net.scope, vm, { client: 'udhcpc' });
        return { readyMs, leaseMs: since(t0) };
      } finally {
        await pod.dispose();
      }
    },
  };
}

interface XdsBench {
  measure(podman: PodmanRuntime): Promise<number>;
  dispose(): Promise<void>;
}

/** The proxy world of e2e/proxy (controller, stand-ins, VLAN) once; each measure a fresh proxy pod in it. */
async function xdsBench(ns: string): Promise<XdsBench> {
  const w = await openProxyWorld(ns);
  return {
    measure: async (podman) => {
      const t0 = Date.now();
      await runProxyPod(w, { podman });
      const ms = since(t0);
      await w.pod?.dispose();
      w.pod = undefined;
      return ms;
    },
    dispose: () => w.dispose(),
  };
}

const VARIANTS = ['runtime', 'slim'] as const;
type Variant = (typeof VARIANTS)[number];

/** The pod runner's podman mapping for VARIANT: the chart's image names → the local tags of that variant. */
function runtimeFor(v: Variant): PodmanRuntime {
  const built = builtImages();
  return {
    image: (image) => {
      const local = built.image(image);
      return v === 'slim' && local !== undefined ? local.replace(/:([^:]+)$/, '-slim:$1') : local;
    },
  };
}

async function main(rounds: number): Promise<Record<string, number[]>> {
  builtImages();
  // one rig for the dhcp and xds measures (the e2e helpers read it from the e2e environment, as under jest)
  // the repository's CRDs and the third-party ones (the default), as the e2e tests' rig
  const rig = await rigUp({ name: `bench-images-${process.pid}` });
  process.env.OOOI_E2E_RIG = rig.name;
  process.env.OOOI_E2E_KUBECONFIG = rig.kubeconfig;
  const times: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (times[k] = [...(times[k] ?? []), ms]);
  let dhcp: DhcpBench | undefined;
  let xds: XdsBench | undefined;
  try {
    dhcp = await dhcpBench();
    xds = await xdsBench(`bench-images-${process.pid}`);
    for (let r = 0; r < rounds; r++) {
      for (const v of r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        add(`load/${v}`, loadavg()[0] ?? 0);
        add(`controller/${v}`, await controllerReady(runtimeFor(v), `bench-images-ctl-${process.pid}`));
        const d = await dhcp.measure(runtimeFor(v));
        add(`dhcp/${v}`, d.readyMs);
        add(`dhcp-lease/${v}`, d.leaseMs);
        add(`xds/${v}`, await xds.measure(runtimeFor(v)));
        const last = (k: string) => times[`${k}/${v}`]?.at(-1);
        process.stderr.write(
          `round ${r + 1} ${v}: controller ${last('controller')} ms, dhcp ${last('dhcp')} ms, xds ${last('xds')} ms\n`,
        );
      }
    }
  } finally {
    await xds?.dispose();
    await dhcp?.net.dispose();
    await rigDown(rig.name);
  }
  return times;
}

const i = process.argv.indexOf('--rounds');
main(i >= 0 ? Number(process.argv[i + 1]) : 3).then(
  (times) => void process.stdout.write(`${JSON.stringify(times)}\n`),
  (err: unknown) => {
    process.stderr.write(
      `start-to-ready failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
