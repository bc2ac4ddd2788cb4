// Installs CustomResourceDefinitions from directories of YAML files and waits until each is Established.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from './config';
import { applyObject, getJson, type ApiTarget } from './kubeapi';
import { waitFor } from './proc';

/** The CRD directories `rigUp` installs by default: the repo's generated `crds/` and the third-party test CRDs. */
export function defaultCrdDirs(): string[] {
  return [join(repoRoot, 'crds'), join(repoRoot, 'e2e', 'third-party-crds')];
}

interface CrdDoc {
  readonly kind?: unknown;
  readonly apiVersion?: unknown;
  readonly metadata?: { readonly name?: unknown };
}

/** Reads every CRD document of every `*.yaml`/`*.yml` file in the directories (missing directories are skipped). */
export async function readCrds(
  dirs: readonly string[],
): Promise<{ name: string; obj: CrdDoc; file: string }[]> {
  const out: { name: string; obj: CrdDoc; file: string }[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
    for (const f of files) {
      const file = join(dir, f);
      for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
        if (doc.errors.length > 0) throw new Error(`rig: ${file}: ${doc.errors[0]?.message ?? 'bad YAML'}`);
        const obj = doc.toJS() as CrdDoc | null;
        if (obj === null) continue;
        if (obj.kind !== 'CustomResourceDefinition' || typeof obj.metadata?.name !== 'string') {
          throw new Error(`rig: ${file}: not a CustomResourceDefinition with a name`);
        }
        out.push({ name: obj.metadata.name, obj, file });
      }
    }
  }
  return out;
}

function established(crd: unknown): boolean {
  const conds = (crd as { status?: { conditions?: { type?: string; status?: string }[] } } | undefined)
    ?.status?.conditions;
  return (conds ?? []).some((c) => c.type === 'Established' && c.status === 'True');
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Applies the CRDs (server-side apply) and waits until all are Established. Returns their names. */
export async function installCrds(t: ApiTarget, dirs: readonly string[]): Promise<string[]> {
  const crds = await readCrds(dirs);
  const seen = new Map<string, string>();
  for (const c of crds) {
    const prev = seen.get(c.name);
    if (prev !== undefined) throw new Error(`rig: CRD ${c.name} defined twice (${prev}, ${c.file})`);
    seen.set(c.name, c.file);
  }
  await Promise.all(crds.map((c) => applyObject(t, `${crdPath}/${c.name}`, c.obj)));
  for (const c of crds) {
    await waitFor(
      `CRD ${c.name} Established`,
      async () => established(await getJson(t, `${crdPath}/${c.name}`)),
      {
        timeoutMs: 30_000,
      },
    );
  }
  return crds.map((c) => c.name);
}
