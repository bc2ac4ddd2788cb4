// Test data shared by the unit tests of @oooi/api and the e2e tests that send the same inputs to a real apiserver,
// and the golden-file helpers every package's tests use (api is the leaf every package may import).
export type { Case } from './case';
export { acceptCases } from './accept-cases';
export { infraRejectCases } from './infra-cases';
export { childRejectCases } from './child-cases';
export { proxyHaAcceptCases, proxyHaRejectCases } from './proxy-ha-cases';
export { examples, load, set, errorsOf, infra, alpha, bravo, dhcp, dns, proxy } from './fixtures';
export { expectGolden, expectGoldenDir } from './golden';
