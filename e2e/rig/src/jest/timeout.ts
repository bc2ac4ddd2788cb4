// For the e2e project's `setupFilesAfterEnv`: jest reads `testTimeout` only from the global config, so a
// per-project value is ignored; this sets it for every e2e test file.
jest.setTimeout(120_000);
