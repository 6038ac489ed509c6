// Where verified fixes disagree: what the behaviour check reports after replaying the selected function's inputs.

/** One input on which two versions of the function give different outcomes, each outcome as text. */
export interface DistinguishingInput {
  /** The call as it reads in code: `pageCount(10, 5)`. */
  readonly call: string;
  readonly first: string;
  readonly second: string;
}

/** How one verified fix behaves against the unmodified function on the inputs tried. */
export interface FixBehaviour {
  readonly index: number;
  /** Inputs both this fix and the unmodified function were replayed on. */
  readonly tried: number;
  /** Of those, the ones where its outcome differs from the unmodified function's. */
  readonly changed: number;
  /** Changed inputs that are not inputs of the failing tests (what the fix changes beyond them). */
  readonly changedBeyondFailingTests: number;
  /** A few of the shortest changed inputs beyond the failing tests: `first` before, `second` after. */
  readonly examples: readonly DistinguishingInput[];
  /** Why this fix could not be replayed (its module did not load, its run failed); absent: it was. */
  readonly problem?: string;
}

/** Two verified fixes that behave differently, with a few of the shortest inputs telling them apart. */
export interface PairDifference {
  readonly first: number;
  readonly second: number;
  /** Inputs on which the two differ. */
  readonly differing: number;
  readonly examples: readonly DistinguishingInput[];
}

export interface BehaviourReport {
  /** The function replayed, as the calls name it (`pageCount`, `Stats#median`); absent when none was found. */
  readonly function?: string;
  /**
   * `compared`: the verified fixes were replayed; `notReplayable`: the function cannot be replayed (`reason` says
   * why); `noInputs`: the tests never called it with inputs that can be copied; `failed`: a run of the check failed
   * (a recording run that failed or was cut short before it recorded anything among them).
   */
  readonly status: 'compared' | 'notReplayable' | 'noInputs' | 'failed';
  /** Why it did not compare; on `compared`, what its recordings lacked (a recording run failed or was cut short). */
  readonly reason?: string;
  /** Distinct inputs the tests called it with, and inputs generated near them and at random. */
  readonly observed: number;
  readonly generated: number;
  /** Of the observed inputs, those the failing tests made. */
  readonly failingTestInputs: number;
  readonly fixes: readonly FixBehaviour[];
  /** Verified fixes (indices) that gave the same outcome on every input tried, one group per behaviour, best first. */
  readonly groups: readonly (readonly number[])[];
  /** For each two groups, their first fixes and where they differ. */
  readonly pairs: readonly PairDifference[];
}
