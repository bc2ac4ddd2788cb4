// House rules (../shared/STYLE.md §2): file/function/parameter limits, one public entry per package,
// no `export *`, no floating promises, process.env only in main.ts, pure folders free of I/O, clock and randomness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const pureFolders = [
  'packages/api/src/**/*.ts',
  'packages/*/src/render/**/*.ts',
  'packages/*/src/desired/**/*.ts',
  'packages/*/src/translate/**/*.ts',
  'packages/*/src/aggregate/**/*.ts',
  'packages/*/src/validate/**/*.ts',
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.turbo/**', 'crds/**', '**/testdata/**', 'coverage/**'],
  },
  { ignores: ['**/src/generated/**'] }, // generated Envoy types (packages/envoy/scripts/generate.ts)
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 4],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use explicit named exports (STYLE §2.2).' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@oooi/*/src', '@oooi/*/src/**'],
              message: "Import the package's public entry (STYLE §2.2).",
            },
            { group: ['**/e2e/**'], message: 'Nothing under packages/ imports e2e/.' },
            {
              group: ['**/packages/*/src', '**/packages/*/src/**'],
              message:
                'Import another package through its public entry (@oooi/<name>), never by path (STYLE §2.2).',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read process.env only in main.ts (STYLE §2.13).' },
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
              message: 'Pure code does no I/O (STYLE §2.4).',
            },
            {
              group: ['@kubernetes/client-node', 'pino', 'prom-client'],
              message: 'Pure code does no I/O (STYLE §2.4).',
            },
            {
              group: ['@oooi/*/src', '@oooi/*/src/**'],
              message: "Import the package's public entry (STYLE §2.2).",
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Pure code reads no environment (STYLE §2.4).' },
        { object: 'Date', property: 'now', message: 'Pass the clock in (STYLE §2.4).' },
        { object: 'Math', property: 'random', message: 'Pass the random source in (STYLE §2.4).' },
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
