// House rules (docs/architecture.md, "Rules of the house"): file/function/parameter limits, one public entry per
// package (and the controller's infra/ and attachment/ slices entered through their index.ts), no `export *`, no
// import cycle, no floating promises, process.env only in main.ts, no `as unknown as` in
// production code, pure folders free of I/O, clock and randomness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { noImportCycleRule } from './scripts/eslint/no-import-cycle.mjs';

// Pure folders: a folder of one of these names, at any depth under a package's src/, holds deciding code only
// (no I/O, no clock, no randomness, no environment). One name a line, so new pure folders merge easily.
const pureFolderNames = [
  'aggregate',
  'allocate',
  'codec',
  'decide',
  'desired',
  'render',
  'translate',
  'validate',
  'workload',
];
const pureFolders = [
  'packages/api/src/**/*.ts',
  ...pureFolderNames.map((name) => `packages/*/src/**/${name}/**/*.ts`),
];

const exportAll = {
  selector: 'ExportAllDeclaration',
  message: 'Use explicit named exports (one public entry per package, docs/architecture.md).',
};
const doubleCast = {
  selector:
    "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
  message: '`as unknown as` hides a type error: type the source (e.g. a typed cache) or validate the value.',
};
const sliceInside = (slice) => ({
  group: [`**/${slice}/*`],
  message: `Import the ${slice} slice through its entry (packages/controller/src/${slice}/index.ts), not a path inside.`,
});
const ourPlugin = { rules: { 'no-import-cycle': noImportCycleRule() } };

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.turbo/**', 'crds/**', '**/testdata/**', 'coverage/**'],
  },
  { ignores: ['**/src/generated/**'] }, // generated Envoy types (packages/envoy/scripts/generate.ts)
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    plugins: { oooi: ourPlugin },
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 4],
      'no-restricted-syntax': ['error', exportAll],
      'oooi/no-import-cycle': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@oooi/*/src', '@oooi/*/src/**'],
              message: "Import the package's public entry (@oooi/<name> or @oooi/<name>/testing).",
            },
            { group: ['**/e2e/**'], message: 'Nothing under packages/ imports e2e/.' },
            {
              group: ['**/packages/*/src', '**/packages/*/src/**'],
              message: 'Import another package through its public entry (@oooi/<name>), never by path.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read process.env only in main.ts (no hidden global state).',
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: pureFolders,
    ignores: ['**/*.test.ts', '**/scripts/**', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'dgram', 'http', 'https'],
              message: 'Pure code does no I/O (pure folders: docs/architecture.md).',
            },
            {
              group: ['@kubernetes/client-node', 'pino', 'prom-client'],
              message: 'Pure code does no I/O (pure folders: docs/architecture.md).',
            },
            {
              group: ['@oooi/*/src', '@oooi/*/src/**'],
              message: "Import the package's public entry (@oooi/<name> or @oooi/<name>/testing).",
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Pure code reads no environment: pass the value in.' },
        { object: 'Date', property: 'now', message: 'Pure code reads no clock: pass the time in.' },
        {
          object: 'Math',
          property: 'random',
          message: 'Pure code uses no randomness: pass the random source in.',
        },
      ],
    },
  },
  {
    // Production code: packages/*/src minus tests and testing/.
    files: ['packages/*/src/**/*.ts'],
    // packages/kube/src/manager.ts still has one; its owner removes it.
    ignores: ['**/*.test.ts', '**/testing/**', '**/testing.ts', 'packages/kube/src/manager.ts'],
    rules: { 'no-restricted-syntax': ['error', exportAll, doubleCast] },
  },
  {
    // The controller's Infra and attachment slices are reached through their index.ts only (each README's "Entry
    // points"): no path inside either from outside it. A rule of its own name, so the patterns above still apply.
    files: ['packages/controller/src/**/*.ts'],
    ignores: ['packages/controller/src/infra/**', 'packages/controller/src/attachment/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [sliceInside('infra'), sliceInside('attachment')] },
      ],
    },
  },
  {
    files: ['packages/controller/src/attachment/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [sliceInside('infra')] }] },
  },
  {
    // infra/ never imports the attachment slice (attachment/ stands on infra/, not the reverse).
    files: ['packages/controller/src/infra/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/attachment', '**/attachment/*'], message: 'infra/ does not import attachment/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/main.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**', 'packages/*/scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'bench/**/*.ts', '**/testing/**/*.ts'],
    rules: {
      'max-lines-per-function': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node },
    },
  },
);
