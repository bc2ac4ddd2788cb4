// The one YAML serialisation of rendered output: no line folding, no anchors, keys in the order the object was
// built (builders construct in a fixed order, so output is byte-stable for the same input).
import { stringify } from 'yaml';

export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
