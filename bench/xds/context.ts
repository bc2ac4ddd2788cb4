// What every part of the bench shares: the options and the run's scope, namespaces and server command lines.
import type { NetScope, Netns } from '@oooi/rig';
import type { ServerName } from './peers';

export interface Options {
  sizes: number[];
  translateSizes: number[];
  reps: number;
  translateReps: number;
  modes: ('sotw' | 'delta')[];
  /** Also measure go-control-plane with a listener-level change (Envoy cannot update in place). */
  fullRebuild: boolean;
  /** Keep the run directory (inputs, logs) even after a successful run. */
  keep: boolean;
}

export interface Ctx {
  readonly scope: NetScope;
  readonly dir: string;
  /** Each server's command line, without --listen. */
  readonly argv: Record<ServerName, string[]>;
  /** Each server's namespace (its peer and its Envoy run there). */
  readonly ns: Record<ServerName, Netns>;
}
