// Shared fakes for tests of packages that stand on @oooi/kube.
export { FakeRest, type FakeRestOptions } from './fake-rest';
export { matchesLabels, parseApiPath, type ParsedPath } from './fake-paths';
export { CountingRest } from './counting-rest';
