import { errorsOf } from '../testing/fixtures';
import { childRejectCases } from '../testing/child-cases';

describe('validateObject rejects the other kinds with the exact message', () => {
  test.each(childRejectCases)('$name', ({ input, want }) => expect(errorsOf(input)).toEqual(want));
});
