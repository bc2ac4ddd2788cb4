// Proxy HA mode: which replica holds the floating serverIP. keepalived adds the address to this pod's VLAN interface
// when it takes it (docs/high-availability.md "Proxy"); the sidecar shares the pod's network namespace, so it sees
// the address among the pod's own (the kernel's truth, no keepalived interface needed). When this replica takes it,
// the sidecar writes `status.serverIPHolder` ({ replicaIP: its own replica address, since }) under a field manager
// both replicas share (HOLDER_FIELD_MANAGER): the replica that takes the address last overwrites the other's entry,
// and one that loses it writes nothing, so the status names the last replica that took serverIP.
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { StatusReporter, type Clock, type KindDescriptor, type KubeClient } from '@oooi/kube';
import type { Logger } from 'pino';

/** The field manager of status.serverIPHolder, shared by both replicas' sidecars. */
export const HOLDER_FIELD_MANAGER = 'oooi-xds-holder';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** Whether IP is one of the addresses on INTERFACES (os.networkInterfaces()). */
export function holdsAddress(interfaces: Interfaces, ip: string | undefined): boolean {
  if (!ip) return false;
  return Object.values(interfaces).some((list) => (list ?? []).some((a) => a.address === ip));
}

export interface HolderStatusOptions {
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  readonly namespace: string;
  readonly name: string;
  readonly clock: Clock;
  readonly log: Logger;
  /** This replica's own VLAN address (what the status names). */
  readonly replicaIP: string;
}

/** Writes status.serverIPHolder each time this replica takes serverIP. */
export class HolderStatus {
  private since: string | undefined;
  private readonly reporter: StatusReporter;

  constructor(private readonly o: HolderStatusOptions) {
    this.reporter = new StatusReporter({
      client: o.client,
      kind: o.kind,
      namespace: o.namespace,
      name: o.name,
      clock: o.clock,
      log: o.log,
      build: () => ({ fields: { serverIPHolder: { replicaIP: o.replicaIP, since: this.since } } }),
    });
  }

  /** This replica holds serverIP (HELD) now; a change to held is written. */
  seen(held: boolean): void {
    if (held === (this.since !== undefined)) return;
    this.since = held ? new Date(this.o.clock.now()).toISOString() : undefined;
    this.o.log.info({ replicaIP: this.o.replicaIP, held }, held ? 'Took serverIP' : 'Gave serverIP away');
    if (held) this.reporter.poke();
  }

  stop(): void {
    this.reporter.stop();
  }
}

/** Checks every INTERVALMS whether SERVERIP() is on this pod's interfaces, until SIGNAL aborts. */
export function watchHolder(
  holder: Pick<HolderStatus, 'seen' | 'stop'>,
  serverIP: () => string | undefined,
  signal: AbortSignal,
  intervalMs = 500,
): void {
  const check = () => holder.seen(holdsAddress(networkInterfaces(), serverIP()));
  check();
  const timer = setInterval(check, intervalMs);
  signal.addEventListener('abort', () => (clearInterval(timer), holder.stop()), { once: true });
}
