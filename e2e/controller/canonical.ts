// Small re-exports the comparisons need, in one place.
import { canonicalJson } from '@oooi/kube';
export { applyDefaults, kindInfo } from '@oooi/api';
export const canonicalJsonOf = (v: unknown): string => canonicalJson(v ?? null);
