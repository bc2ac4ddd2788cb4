/** One row of a validation table: an input and the exact messages (formatFieldError) it must get. */
export interface Case {
  readonly name: string;
  readonly input: unknown;
  readonly want?: readonly string[];
}
