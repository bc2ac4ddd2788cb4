// Off a cluster (no --kubeconfig, no $KUBECONFIG, no pod service account) a config with `kubevirt` and `status`
// blocks is still served: no status is reported and no VMI is known, so unknownClients decides for every client.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { systemClock } from '@oooi/kube';
import type { KubevirtView } from '../allocate/kubevirt-view';
import { testConfig } from '../testing/packets';
import type { DhcpServer } from './dhcp-server';
import { KubeLinks } from './kube-links';

test.each(['serve', 'refuse'] as const)(
  'offline, unknownClients %s: a synced view with no VMI',
  async (policy) => {
    const views: (KubevirtView | undefined)[] = [];
    const server = {
      setKubevirt: (v: KubevirtView | undefined) => void views.push(v),
    } as Partial<DhcpServer>;
    const links = new KubeLinks({
      kubeconfig: undefined,
      statusIntervalMs: 1000,
      server: server as DhcpServer,
      log: pino({ level: 'silent' }),
      registry: new Registry(),
      clock: systemClock(),
    });
    const config = testConfig({
      kubevirt: { namespaces: ['vms'], networkName: 'vlan', unknownClients: policy, releaseGraceSeconds: 60 },
      status: { namespace: 'lab', name: 'dhcp' },
    });
    await links.prepare(config);
    links.configure(config);
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ synced: true, unknownClients: policy });
    expect(views[0]?.clients.size).toBe(0);
    expect(links.ready()).toBe(true);
    links.stop();
  },
);
