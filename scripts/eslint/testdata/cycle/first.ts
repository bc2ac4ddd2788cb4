// Fixture for lint-rules.test.ts: first.ts and second.ts import each other.
import { second } from './second';

export const first = (): string => `first ${second.name}`;
