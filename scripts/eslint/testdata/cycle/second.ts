// Fixture for lint-rules.test.ts: second.ts imports first.ts back (through a type-only import).
import type { first } from './first';

export const second = { name: 'second' };
export type First = typeof first;
