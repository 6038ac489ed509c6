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
  /**
   * Variants the check's budget left without an outcome (not started, or ended where they were): the check of this
   * fix was cut short after the others had decided. Absent: every variant ran.
   */
  readonly notRun?: number;
  /**
   * This fix ran no variants of its own: it is equivalent to verified fix `index`, whose variants' outcomes it shares
   * (`text`: the same text once spacing is normalised; `behaviour`: the same outcome on every input the behaviour
   * check tried). Absent: its own variants ran.
   */
  readonly sharedFrom?: { readonly index: number; readonly by: 'text' | 'behaviour' };
  /**
   * The fix was verified on the tests that reach its change, and past the failing tests its variants ran only those
   * (`ran`; `cannotReach`: the others). Absent: the variants ran the whole command.
   */
  readonly reachingTests?: { readonly ran: number; readonly cannotReach: number };
}

/** What the strength check cost, as the front ends report it ("strength check: 12 runs, 8.1 s, 22% of the request"). */
export interface StrengthCost {
  /** Runs it started (control runs, variants' stages, retries); those a shared outcome saved are not in it. */
  readonly runs: number;
  /** Its wall time, from the verdicts to its last run. */
  readonly durationMs: number;
  /** The time it was allowed (a share of the request); absent: no budget. */
  readonly budgetMs?: number;
  /** Verified fixes that shared an equivalent fix's variants instead of running their own. */
  readonly sharedFixes: number;
}
