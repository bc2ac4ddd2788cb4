import { validateObject } from './validate-object';
import { errorsOf, infra, set } from '../testing/fixtures';
import { acceptCases } from '../testing/accept-cases';

describe('validateObject accepts', () => {
  test.each(acceptCases)('$name', ({ input }) => expect(errorsOf(input)).toEqual([]));

  test('defaults are applied as the apiserver applies them', () => {
    const r = validateObject(set(infra, 'spec.infraComponents', {}));
    expect(r.ok && r.value.kind === 'Infra' && r.value.spec.infraComponents).toEqual({
      dhcp: { enabled: true, leaseTime: '1h' },
      dns: { enabled: true },
      proxy: { enabled: true },
    });
  });
});
