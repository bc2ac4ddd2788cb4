// Where the apiserver (with its etcd) stops accepting one child, by size: server-side applies (as the controller
// writes children) of ProxyServers with B backends of 256 source ranges each and of DNSServers with R long records
// per view, for growing B and R, on a rig control plane of its own. Prints the JSON size of each apply body and the answer. It is what
// MAX_CHILD_BYTES (packages/controller/src/infra/desired/child-size.ts) is chosen against. Run it by hand,
//   pnpm tsx bench/controller/size-limit.ts
import {
  ApplyPatchContentType,
  isApiError,
  type KubeConfigRest,
  resourcePath,
  type KindDescriptor,
} from '@oooi/kube';
import { kinds } from './world';
import { runOnOwnRig } from './own-rig';

const ns = 'default';

function proxy(name: string, backends: number): Record<string, unknown> {
  const ranges = Array.from({ length: 256 }, (_, j) => `198.18.${Math.floor(j / 250)}.${1 + (j % 250)}/32`);
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name, namespace: ns },
    spec: {
      networkConfig: { cidr: '198.18.0.0/16', serverIP: '198.18.0.4' },
      backends: Array.from({ length: backends }, (_, b) => ({
        name: `cluster-${String(b).padStart(4, '0')}-kubernetes-hostname`,
        hostname: 'kubernetes',
        port: 443,
        targetService: 'kube-apiserver',
        targetPort: 6443,
        targetNamespace: `clusters-cluster-${String(b).padStart(4, '0')}`,
        sourcePrefixRanges: ranges,
      })),
    },
  };
}

/** A DNSServer with `records` records of long names in each view (managedFields name every record). */
function dnsServer(name: string, records: number): Record<string, unknown> {
  const list = Array.from({ length: records }, (_, r) => ({
    name: `api-int.${'c'.repeat(55)}${String(r).padStart(4, '0')}.${'e'.repeat(60)}.${'x'.repeat(60)}.com`,
    ip: '198.18.0.4',
  }));
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'DNSServer',
    metadata: { name, namespace: ns },
    spec: {
      networkConfig: { cidr: '198.18.0.0/16', serverIP: '198.18.0.3' },
      views: { vlan: { records: list }, podNetwork: { records: list } },
    },
  };
}

type Make = (name: string, n: number) => Record<string, unknown>;

async function main(rest: KubeConfigRest): Promise<void> {
  const series: [string, KindDescriptor, Make, number[], string][] = [
    [
      'ProxyServer',
      kinds.ProxyServer,
      proxy,
      [100, 200, 280, 300, 320, 340],
      'backends of 256 source ranges',
    ],
    [
      'DNSServer',
      kinds.DNSServer,
      dnsServer,
      [1000, 1500, 2000, 2500, 3000],
      'records of 196 characters per view',
    ],
  ];
  for (const [label, kind, make, sizes, what] of series) {
    for (const n of sizes) {
      const objName = `${label.toLowerCase()}-${n}`;
      const body = make(objName, n);
      const bytes = JSON.stringify(body).length;
      const path = resourcePath(kind, { namespace: ns, name: objName });
      let answer: string;
      try {
        await rest.request({
          method: 'PATCH',
          path,
          query: { fieldManager: 'oooi-controller', force: true },
          body,
          contentType: ApplyPatchContentType,
        });
        const stored = await rest.request<Record<string, unknown>>({ method: 'GET', path });
        answer = `accepted; stored object with managedFields ${JSON.stringify(stored).length} bytes`;
      } catch (err) {
        answer = isApiError(err) ? `refused ${err.code}: ${err.message.slice(0, 160)}` : String(err);
      }
      process.stdout.write(`${label}: ${n} ${what}, apply body ${bytes} bytes: ${answer}\n`);
    }
  }
}

runOnOwnRig('bench-size-limit', main);
