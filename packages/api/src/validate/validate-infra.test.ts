import { errorsOf } from '../testing/fixtures';
import { infraRejectCases } from '../testing/infra-cases';

describe('validateObject rejects a broken Infra with the exact message', () => {
  test.each(infraRejectCases)('$name', ({ input, want }) => expect(errorsOf(input)).toEqual(want));
});
