// Object names that must be DNS-1035 labels (Service names; label values share the 63-character limit) while the
// object they derive from may have any name: a name that does not fit is cut and given a short hash suffix (like
// cdk8s Names.toDnsLabel), so distinct sources keep distinct results.
import { contentHash } from './hash';

const DNS_1035 = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * NAME as a DNS-1035 label (≤ 63 characters, a letter first, letters, digits and '-'). A name that already is one is
 * returned unchanged; any other gets its invalid characters replaced, a leading `d-` if it does not start with a
 * letter, is cut to fit and ends in `-` plus 8 hex digits of the hash of NAME.
 */
export function toDnsLabel(name: string): string {
  if (DNS_1035.test(name)) return name;
  let clean = name.toLowerCase().replace(/[^-a-z0-9]+/g, '-');
  if (!/^[a-z]/.test(clean)) clean = `d-${clean}`;
  const cut = clean.slice(0, 54).replace(/-+$/, '');
  return `${cut}-${contentHash(name).slice(0, 8)}`;
}
