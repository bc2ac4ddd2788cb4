// A DNSServer's records are an atomic list, not a map keyed by name (a map list's managed fields would double
// what the apiserver stores and decodes on every write: bench/controller/apply-cost.ts). So the apiserver admits
// a record name twice, and the DNSServer reconciler is what refuses it: Ready=False InvalidSpec naming both
// entries, and the ConfigMap CoreDNS serves stays as it was. (A ProxyServer's backend name twice is refused by
// oooi-xds the same way: e2e/xds/nack-status.test.ts.) With the duplicate gone, the new records are served.
import { ConfigMapKind } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { conditionOf, controllerSuite, until } from './support';

const ns = 'ctl-e2e-duplicate-names';
const suite = controllerSuite(ns);

const dnsServer = (records: { name: string; ip: string }[]): KubeObject => ({
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'DNSServer',
  metadata: { name: 'dup', namespace: ns },
  spec: {
    networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3' },
    upstreams: ['resolv.conf'],
    views: { vlan: { records } },
  },
});
const stored = () => suite.user.get('DNSServer', ns, 'dup');
const configMapData = async (): Promise<Record<string, string> | undefined> => {
  const name = ((await stored())?.status as { configMapName?: string } | undefined)?.configMapName;
  if (name === undefined) return undefined;
  const cm = await suite.user.client.get(ConfigMapKind, { namespace: ns, name });
  return (cm as { data?: Record<string, string> } | undefined)?.data;
};

test('a record name twice is admitted, refused by the reconciler (naming both), and the served records stay', async () => {
  await suite.user.apply('DNSServer', dnsServer([{ name: 'a.b.c', ip: '198.51.100.4' }]));
  await until('Ready=True', stored, (o) => conditionOf(o, 'Ready')?.status === 'True');
  const before = await configMapData();
  expect(Object.values(before ?? {}).join('\n')).toContain('198.51.100.4');

  // Admitted: the apply returns the stored object with both entries.
  const admitted = await suite.user.apply(
    'DNSServer',
    dnsServer([
      { name: 'a.b.c', ip: '198.51.100.4' },
      { name: 'a.b.c', ip: '198.51.100.5' },
    ]),
  );
  expect((admitted.spec as { views: { vlan: { records: unknown[] } } }).views.vlan.records).toHaveLength(2);
  const refused = await until(
    'Ready=False InvalidSpec',
    stored,
    (o) => conditionOf(o, 'Ready')?.reason === 'InvalidSpec',
  );
  expect(conditionOf(refused, 'Ready')).toMatchObject({ status: 'False' });
  expect(conditionOf(refused, 'Ready')!.message).toContain(
    'spec.views.vlan.records[1].name: duplicate of spec.views.vlan.records[0] (a.b.c)',
  );
  expect(await configMapData()).toEqual(before);

  await suite.user.apply('DNSServer', dnsServer([{ name: 'a.b.c', ip: '198.51.100.5' }]));
  await until('Ready=True again', stored, (o) => conditionOf(o, 'Ready')?.status === 'True');
  const after = await until('the new record in the ConfigMap', configMapData, (d) =>
    Object.values(d ?? {})
      .join('\n')
      .includes('198.51.100.5'),
  );
  expect(Object.values(after ?? {}).join('\n')).not.toContain('198.51.100.4');
});
