// The golden-file helpers for the DNS tests: the shared ones of @oooi/api/testing.
export { expectGolden, expectGoldenDir } from '@oooi/api/testing';
