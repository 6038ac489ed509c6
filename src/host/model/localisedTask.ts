// A task that fault localisation chose: which function, from which failing tests, and its share of the sample budget.
import { sampleShare } from '../../core/engine/workspaceFix';
import { testLabel } from '../../core/localisation/rankFunctions';

/** Kept with a task the localised flow started: the panel names the function and says how it was found. */
export interface LocalisedFrom {
  /** The function's name as the engine's parser found it ("clamp"). */
  readonly functionName: string;
  /** Its suspiciousness (0–1.1, rankFunctions.ts). */
  readonly score: number;
  /** The failing tests localisation started from (runner ids; empty without per-test results). */
  readonly failingTests: readonly string[];
}

export function isLocalisedFrom(value: unknown): value is LocalisedFrom {
  const l = value as LocalisedFrom;
  return typeof l === 'object' && l !== null && typeof l.functionName === 'string' && typeof l.score === 'number' &&
    Array.isArray(l.failingTests) && l.failingTests.every((t) => typeof t === 'string');
}

/** The panel row's hover: "verified fix found in clamp by fault localisation from the failing test `clamp keeps…` (score 1.00)". */
export function localisedTitle(from: LocalisedFrom, verified: boolean): string {
  const names = from.failingTests.map((id) => `\`${testLabel(id)}\``);
  const tests = names.length === 0 ? 'the failing tests' : `the failing test${names.length === 1 ? '' : 's'} ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
  return `${verified ? 'fix found in' : 'tried'} ${from.functionName} by fault localisation from ${tests} (score ${from.score.toFixed(2)})`;
}

/** A function localisation ranked, as the localised flow keeps it between its requests (the place is the host's). */
export interface RankedTry {
  readonly relativePath: string;
  readonly name: string;
  readonly score: number;
}

/**
 * Where the localised flow is: the functions ranked (top few), the one this request tries, and the samples left of
 * the one budget (the samples setting) that the tries share, as the CLI's workspace request does (workspaceFix.ts).
 */
export interface LocalisedTry<F extends RankedTry = RankedTry> {
  readonly functions: readonly F[];
  readonly failingTests: readonly string[];
  readonly index: number;
  readonly remaining: number;
}

/** Samples this try gets: its share of what is left, following the scores (the last one gets all of it). */
export function tryShare(plan: LocalisedTry): number {
  return sampleShare(plan.remaining, plan.functions.slice(plan.index).map((f) => f.score));
}

/** The next try after this one used `used` samples without a verified fix; undefined when no function or sample is left. */
export function nextTry<F extends RankedTry>(plan: LocalisedTry<F>, used: number): LocalisedTry<F> | undefined {
  const remaining = plan.remaining - used;
  return plan.index + 1 < plan.functions.length && remaining > 0 ? { ...plan, index: plan.index + 1, remaining } : undefined;
}

/** What the task of this try keeps. */
export function localisedFromTry(plan: LocalisedTry): LocalisedFrom {
  const fn = plan.functions[plan.index];
  return { functionName: fn.name, score: fn.score, failingTests: plan.failingTests };
}
