// HA mode's extra static addresses of a component (docs/high-availability.md, "HA mode"): each one more replica of
// the component, a single-replica Deployment on its own Multus static address. The field and its rules are built
// here once, for the Infra's component and for the child kind that runs it.
import { Type } from '@sinclair/typebox';
import type { TArray, TString } from '@sinclair/typebox';
import { entriesDistinct } from './cel-list';
import { ipv4 } from './fields';

/** At most this many additional addresses per component: four replicas in all. */
export const MAX_ADDITIONAL_SERVER_IPS = 3;

/** The list field at PATH (its full path, for messages) with DESCRIPTION. */
export function additionalServerIPs(path: string, description: string): TArray<TString> {
  return Type.Array(ipv4(`${path}[*]`, 'One more static VLAN address.'), {
    description,
    maxItems: MAX_ADDITIONAL_SERVER_IPS,
    'x-kubernetes-validations': [entriesDistinct(path)],
  });
}
