// The files of one workload kind for `oooi render`: for every owner its objects as files of their own
// (`<kind>-<namespace>-<name>.yaml`) and its runnable files under `fileDir` (`dns/…`, `dhcp/…`); an owner that
// does not render gives one line per problem instead, prefixed by its kind, namespace and name.
import { formatFieldError } from '@oooi/api';
import type { ObjectMeta, ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { objectFileName } from './render-infras';
import type { RenderedFile } from './render-infras';
import { toYaml } from './yaml-text';

/** What a workload renderer returns that `oooi render` writes. */
export interface RenderedWorkload {
  readonly objects: readonly KubeObject[];
  readonly fileDir: string;
  readonly files: Readonly<Record<string, string>>;
}

export function workloadOutputs<T extends { readonly kind: string; readonly metadata: ObjectMeta }>(
  owners: readonly T[],
  render: (owner: T) => ValidationResult<RenderedWorkload>,
): { files: RenderedFile[]; errors: string[] } {
  const files: RenderedFile[] = [];
  const errors: string[] = [];
  for (const owner of owners) {
    const rendered = render(owner);
    const id = `${owner.kind} ${owner.metadata.namespace ?? 'default'}/${owner.metadata.name}`;
    if (!rendered.ok) {
      errors.push(...rendered.errors.map((e) => `${id}: ${formatFieldError(e)}`));
      continue;
    }
    for (const obj of rendered.value.objects) {
      files.push({
        name: objectFileName(obj as { kind: string; metadata: { name: string; namespace?: string } }),
        content: toYaml(obj),
      });
    }
    for (const [name, content] of Object.entries(rendered.value.files)) {
      files.push({ name: `${rendered.value.fileDir}/${name}`, content });
    }
  }
  return { files, errors };
}
