// The hot-standby pair through the reconciler, against @oooi/kube's FakeRest (a stand-in for the apiserver's
// storage and server-side apply; the real apiserver and kubelet run in e2e/dhcp/pair-controller.test.ts): the
// Secret is generated once and then kept, never in a log line; the standby is applied after the primary; Available
// names both; turning the pair off deletes the standby.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { DHCPServer } from '@oooi/api';
import {
  KubeClient,
  resourcePath,
  type KindDescriptor,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
} from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { exampleDhcpServer } from '../testing/fixtures';
import { pairDhcpServer } from '../testing/pair';
import { DhcpServerReconciler } from './dhcp-server-reconciler';
import { workloadChildReaders } from '../../workload/workload-children';
import { DeploymentKind, DhcpServerKind, PersistentVolumeClaimKind, SecretKind } from '../../workload/kinds';

const NS = 'lab';
const NAME = 'lab-dhcp';

function world(initial: DHCPServer) {
  const fake = new FakeRest({ fieldManager: 'oooi-controller' });
  const path = (kind: KindDescriptor, name: string) => resourcePath(kind, { namespace: NS, name });
  const reader = <T extends KubeObject>(kind: KindDescriptor): ObjectReader<T> => ({
    get: (namespace, name) => fake.peek(resourcePath(kind, { namespace, name })) as T | undefined,
  });
  const none = { get: () => undefined, list: () => [] };
  fake.seed(path(DhcpServerKind, NAME), initial as unknown as KubeObject);
  const logged: string[] = [];
  const sink = new Writable({ write: (chunk, _e, done) => (logged.push(String(chunk)), done()) });
  const reconciler = new DhcpServerReconciler({
    client: new KubeClient({ rest: fake, fieldManager: 'oooi-controller' }),
    dhcpServers: reader<DHCPServer & KubeObject>(DhcpServerKind),
    children: {
      ...workloadChildReaders(reader),
      persistentVolumeClaims: reader(PersistentVolumeClaimKind),
      secrets: reader(SecretKind),
    },
    vmiReaders: { roles: none, roleBindings: none, namespaces: { get: () => undefined } },
    clock: {
      now: () => Date.parse('2026-12-01T12:00:00Z'),
      setTimeout: () => 0,
      clearTimeout: () => undefined,
    },
  });
  const ctx: ReconcileContext = {
    log: pino({ level: 'trace' }, sink),
    reconcileID: 'test',
    controller: 'dhcpserver',
    signal: new AbortController().signal,
  };
  const dhcp = () => fake.peek(path(DhcpServerKind, NAME)) as unknown as DHCPServer;
  return {
    fake,
    logged,
    peek: (kind: KindDescriptor, name: string) => fake.peek(path(kind, name)) as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    pass: async () => {
      const before = fake.writes().length;
      await reconciler.reconcile({ namespace: NS, name: NAME }, ctx);
      return fake
        .writes()
        .slice(before)
        .map((w) => `${w.method} ${w.path.split('/').slice(-2).join('/')}`);
    },
    setSpec: (d: DHCPServer) =>
      fake.seed(path(DhcpServerKind, NAME), { ...dhcp(), spec: d.spec } as KubeObject),
    condition: (type: string) => dhcp().status?.conditions?.find((c) => c.type === type),
  };
}

describe('DhcpServerReconciler with a standby', () => {
  test('the Secret once (random, owned, before the Deployments), kept as it is on later passes, never logged', async () => {
    const w = world(pairDhcpServer());
    const writes = await w.pass();
    expect(writes.filter((x) => !x.includes('dhcpservers') && !x.endsWith('/status'))).toEqual([
      'PATCH serviceaccounts/lab-dhcp',
      'PATCH roles/lab-dhcp-status',
      'PATCH configmaps/lab-dhcp-config',
      'PATCH persistentvolumeclaims/lab-dhcp-leases',
      'PATCH persistentvolumeclaims/lab-dhcp-1-leases',
      'PATCH secrets/lab-dhcp-ha',
      'PATCH services/lab-dhcp',
      'PATCH networkpolicies/lab-dhcp',
      'PATCH rolebindings/lab-dhcp-status',
      'PATCH deployments/lab-dhcp',
      'PATCH deployments/lab-dhcp-1',
    ]);
    const secret = w.peek(SecretKind, 'lab-dhcp-ha');
    const value = Buffer.from(String(secret.data.secret), 'base64').toString();
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.metadata.ownerReferences[0]).toMatchObject({
      kind: 'DHCPServer',
      name: NAME,
      controller: true,
    });
    expect(await w.pass()).toEqual([]);
    expect(w.peek(SecretKind, 'lab-dhcp-ha').data.secret).toBe(secret.data.secret);
    expect(w.logged.join('')).not.toContain(secret.data.secret);
    expect(w.logged.join('')).not.toContain(value);
  });

  test('two DHCPServers never get the same secret', async () => {
    const [a, b] = [world(pairDhcpServer()), world(pairDhcpServer())];
    await a.pass();
    await b.pass();
    expect(a.peek(SecretKind, 'lab-dhcp-ha').data.secret).not.toBe(
      b.peek(SecretKind, 'lab-dhcp-ha').data.secret,
    );
  });

  test('Available names both replicas; turning the pair off deletes the standby and keeps the Secret', async () => {
    const w = world(pairDhcpServer({ leaseStorage: undefined }));
    await w.pass();
    expect(w.condition('Available')).toMatchObject({ status: 'False', reason: 'NoReplicaAvailable' });
    expect(w.condition('Available')?.message).toContain('198.51.100.6 (Deployment lab-dhcp-1');
    w.setSpec(exampleDhcpServer({ leaseStorage: undefined }));
    const writes = await w.pass();
    expect(writes).toContain('DELETE deployments/lab-dhcp-1');
    expect(w.peek(DeploymentKind, 'lab-dhcp-1')).toBeUndefined();
    expect(w.peek(SecretKind, 'lab-dhcp-ha')).toBeDefined();
    expect(w.condition('Available')?.reason).not.toMatch(/Replica/);
  });
});
