// The hot-standby pair's shared secret (docs/high-availability.md "DHCP"): a Secret `<w>-ha` owned by the
// DHCPServer, key `secret`, mounted read-only into both pods; every message between the two oooi-dhcp processes is
// authenticated with it. The value is random and made here, in the shell, never in the pure plan (so `oooi render`
// and the golden tests never hold one): the gather step reads the Secret from the cache (the newest we know, our
// own last write when the cache lags it) and keeps its value; only when there is none does it draw a new one. The
// apply then writes the same value again, which the write client skips as unchanged. The value is never logged
// (the apply path logs kinds and names only). The Secret stays when the pair is turned off (turning it on again
// reuses it) and goes with the DHCPServer (owner reference).
import { randomBytes } from 'node:crypto';
import type { DHCPServer } from '@oooi/api';
import type { ChildStep, KubeClient, ObjectReader } from '@oooi/kube';
import { SecretKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import { haSecretBody } from '../desired/dhcp-pair-workload';
import type { DhcpChildNames } from '../desired/names';
import { HA_SECRET_KEY } from '../render/dhcp-ha-config';

/** Random bytes of a new secret (oooi-dhcp needs at least 32), written as hex text. */
export const HA_SECRET_BYTES = 32;

/** A fresh value as the Secret's `data` holds it (base64 of 64 hex characters). */
export function newSecretData(): string {
  return Buffer.from(randomBytes(HA_SECRET_BYTES).toString('hex')).toString('base64');
}

/** The apply step of the pair's Secret: the value the cache holds, or a new one when there is none. */
export function haSecretStep(
  client: Pick<KubeClient, 'freshest'>,
  secrets: ObjectReader,
  dhcp: DHCPServer,
  names: DhcpChildNames,
): ChildStep {
  const live = client.freshest(SecretKind, secrets.get(namespaceOf(dhcp), names.haSecret));
  const kept = (live as { data?: Record<string, string> } | undefined)?.data?.[HA_SECRET_KEY];
  return { kind: SecretKind, body: haSecretBody(dhcp, names, kept || newSecretData()), reader: secrets };
}
