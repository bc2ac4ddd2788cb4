// Go duration syntax (lease times), for the TS mirror of the CRDs' CEL rules.

const durationUnitsMs: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * The duration syntax of lease times: Go duration syntax ("30m", "1h", "1h30m", "1.5h") restricted to hours,
 * minutes and seconds, in that order, with bounded digits — so CEL's `duration()` can never overflow (Go's
 * limit is about 2562047h) on anything the pattern admits. The empty string matches; rules reject it.
 */
export const durationPattern =
  '^([0-9]{1,5}([.][0-9]{1,3})?h)?([0-9]{1,6}([.][0-9]{1,3})?m)?([0-9]{1,7}([.][0-9]{1,3})?s)?$';

/** Parses a duration of `durationPattern` into milliseconds, or returns undefined (also for ""). */
export function parseGoDuration(text: string): number | undefined {
  if (text === '' || !new RegExp(durationPattern).test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(match[1]) * durationUnitsMs[match[2]!]!;
  }
  return total;
}
