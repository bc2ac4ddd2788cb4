// Lints probe files with ESLint's Node API and the repository's config, for lint-rules.test.ts (jest's module
// sandbox cannot load an ESM config). Reads `[{ filePath, code? }]` (JSON) on stdin: with code, the text is
// linted as if it were that file; without, the file on disk. Writes `[[{ rule, message }]]` on stdout.
// Type-aware linting is turned off on top of the config: the probes do not exist on disk (the TypeScript project
// service would refuse them), and none of the rules under test needs types; which rules apply to which path is
// exactly what the repository's config says.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({
  cwd: repoRoot,
  ignore: false,
  overrideConfig: [tseslint.configs.disableTypeChecked],
});
const probes = JSON.parse(readFileSync(0, 'utf8'));
const out = [];
for (const probe of probes) {
  const filePath = join(repoRoot, probe.filePath);
  const [result] =
    probe.code === undefined
      ? await eslint.lintFiles([filePath])
      : await eslint.lintText(probe.code, { filePath });
  out.push(result.messages.map((m) => ({ rule: m.ruleId, message: m.message })));
}
process.stdout.write(JSON.stringify(out));
