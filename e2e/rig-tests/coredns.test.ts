// Real CoreDNS answering a hand-written Corefile differently to two source networks (the `view` plugin):
// a client on the VLAN (198.51.100.0/24) and one on the pod network (203.0.113.0/24) ask the same name.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dig, e2eEnv, openNetScope, rigBin, waitFor, type NetScope } from '@oooi/rig';

// the e2e project's testTimeout is a global option jest ignores per project: set it here
jest.setTimeout(120_000);

const corefile = `
.:53 {
    view vlan {
        expr incidr(client_ip(), '198.51.100.0/24')
    }
    hosts {
        198.51.100.80 api.c1.example.test
    }
    errors
}
.:53 {
    hosts {
        203.0.113.80 api.c1.example.test
    }
    errors
}
`;

describe('CoreDNS with a view per source network', () => {
  let scope: NetScope | undefined;
  afterAll(async () => scope?.dispose());

  it('answers the VLAN view to a VLAN client and the default view to a pod-network client', async () => {
    scope = openNetScope(e2eEnv().rig);
    const [vlan, podnet] = await Promise.all([
      scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
      scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    ]);
    const [dns, vm, pod] = await Promise.all([
      scope.createNamespace('dns'),
      scope.createNamespace('vm'),
      scope.createNamespace('pod'),
    ]);
    await vlan.attach(dns, { ifname: 'net1', address: '198.51.100.53/24' });
    await podnet.attach(dns, { ifname: 'eth0', address: '203.0.113.53/24' });
    await vlan.attach(vm, { address: '198.51.100.10/24' });
    await podnet.attach(pod, { address: '203.0.113.10/24' });

    const conf = join(scope.dir, 'Corefile');
    await writeFile(conf, corefile);
    const coredns = dns.spawn([await rigBin('coredns'), '-conf', conf], { label: 'coredns' });
    await waitFor(
      'CoreDNS to answer',
      async () => {
        if (!coredns.alive()) throw new Error(`coredns exited:\n${coredns.log()}`);
        return (
          (await dig(dns, { server: '127.0.0.1', name: 'api.c1.example.test', tries: 1 })).status !==
          'TIMEOUT'
        );
      },
      { timeoutMs: 10_000, everyMs: 200 },
    );

    const fromVm = await dig(vm, { server: '198.51.100.53', name: 'api.c1.example.test' });
    const fromPod = await dig(pod, { server: '203.0.113.53', name: 'api.c1.example.test' });
    expect(fromVm).toMatchObject({ status: 'NOERROR', answers: ['198.51.100.80'] });
    expect(fromPod).toMatchObject({ status: 'NOERROR', answers: ['203.0.113.80'] });
    // the VM has no route to the pod network: our namespaces are isolated from each other and from the host
    const crossed = await dig(vm, { server: '203.0.113.53', name: 'api.c1.example.test', tries: 1 });
    expect(crossed.status).toBe('TIMEOUT');
  });
});
