// Fixture for lint-rules.test.ts: imports first.ts, which never imports it back (no cycle here).
import { first } from './first';

export const leaf = first();
