// How firmly the tests pin a verified fix: what the strength check reports for each one.

/** One variant of a verified fix that passed the whole suite as well. */
export interface SurvivingVariant {
  /** What the variant puts in place of the selection, as a candidate's replacement does. */
  readonly replacement: string;
  /** What the variant changes, against the verified fix. */
  readonly diff: string;
  readonly label: string;
}

export interface TestStrength {
  readonly variants: number;
  readonly caught: number;
  readonly survivors: readonly SurvivingVariant[];
  /** More than one decided variant in ten passes too: the tests barely pin this change. */
  readonly weak: boolean;
  /**
   * Variants that ran past their limit twice (the second time with a longer one): neither caught nor surviving, since
   * on a busy machine a timeout says more about the load than about the tests. Absent: none.
   */
  readonly undecided?: number;
}
