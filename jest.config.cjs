// One jest run, two projects: `unit` (pure code beside its source, no I/O peers) and `e2e` (real peers from the rig).
// @swc/jest transforms TypeScript and the ESM-only @kubernetes/client-node (and its ESM dependencies) to CommonJS.
const esmDeps = ['@kubernetes/client-node', 'openid-client', 'oauth4webapi', 'jose'];
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  '^.+\\.m?js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
};
const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm|${esmDeps.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testEnvironment: 'node',
};
module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/packages/*/src/**/*.test.ts',
        '<rootDir>/packages/*/scripts/**/*.test.ts',
        '<rootDir>/scripts/**/*.test.ts',
        '<rootDir>/bench/*/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/e2e/rig/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/e2e/rig/src/jest/global-teardown.ts',
      // testTimeout is a global option (ignored inside a project): the setup file sets 120 s per test.
      setupFilesAfterEnv: ['<rootDir>/e2e/rig/src/jest/timeout.ts'],
    },
  ],
};
