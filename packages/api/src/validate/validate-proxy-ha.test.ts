import { errorsOf } from '../testing/fixtures';
import { proxyHaAcceptCases, proxyHaRejectCases } from '../testing/proxy-ha-cases';

describe('the proxy highAvailability block', () => {
  test.each(proxyHaAcceptCases)('accepts $name', ({ input }) => expect(errorsOf(input)).toEqual([]));
  test.each(proxyHaRejectCases)('rejects $name with the exact message', ({ input, want }) =>
    expect(errorsOf(input)).toEqual(want),
  );
});
