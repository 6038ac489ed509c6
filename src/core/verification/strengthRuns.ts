// Runs the strength check over the verified fixes: each fix's control run and variants, staged like candidates with
// limits from the fix's own runs; equivalent fixes share one fix's outcomes; identical variant texts run once.
import type { CandidateResult } from '../contract/fixRequest';
import type { StrengthChoice } from '../contract/choices';
import type { TestStrength } from '../contract/strength';
import { applyReplacement } from '../base/textRange';
import { seconds } from '../base/duration';
import { LIMIT_MULTIPLE, VARIANT_LIMIT_FLOOR_MS, limitFromBaseline } from './timeLimits';
import type { Logger } from '../base/logger';
import { CONTROL_FAILED, RETRY_SLOWDOWN, controlOf, staticReviewReason, strengthVariants, testStrength, variantsToPin } from './strengthCheck';
import type { Variant, VariantOutcome } from './strengthCheck';
import { equivalenceKey } from './strengthBudget';
import { hasControlRun } from './controlText';

/** A variant's stage limits: a number limits both stages alike. */
export type VariantLimit = number | { readonly failingTestsMs: number; readonly fullMs: number };

/** Which verified fix a variant is of, and what the variant puts in place of the selection. */
export interface VariantOf {
  readonly fix: number;
  readonly replacement: string;
}

/** Runs variants as the verifier runs candidates (the failing tests first, the full run for those that pass them). */
export interface VariantVerifier {
  /** `timedOut` when the run that would have decided it ran past its limit; undefined when cancelled. */
  tryVariant(label: string, fileText: string, limit: VariantLimit, of?: VariantOf): Promise<'caught' | 'survived' | 'timedOut' | undefined>;
  /** How long candidate `index`'s run of the failing tests took (its variants' first stage gets a multiple of it). */
  failingTestsRunMs?(index: number): number | undefined;
  /** The reaching tests candidate `index` was verified on (its variants run only those), when it ran only those. */
  reachingTestsOf?(index: number): { ran: number; cannotReach: number } | undefined;
}

export interface StrengthCheck {
  readonly level: Exclude<StrengthChoice, 'off'>;
  readonly verifier: VariantVerifier;
  /**
   * The verifier for the `order`-th fix that runs its own variants (0: the first); default `verifier`. The engine
   * gives each one held to the check's budget, queued behind the one before.
   */
  readonly verifierFor?: (order: number) => VariantVerifier;
  readonly languageId: string;
  readonly relativePath: string;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  readonly candidates: readonly CandidateResult[];
  /** The verified candidates to check, best first: their variants are queued first. */
  readonly ranking: readonly number[];
  /** Equivalent fixes share one's variants' outcomes (default true). */
  readonly sharing?: boolean;
  /**
   * The behaviour check's groups of fixes with the same outcome on every input tried, once it ends (undefined when it
   * did not run or compared nothing): a fix past the first shares the strength of an earlier fix of its group.
   */
  readonly groups?: Promise<readonly (readonly number[])[] | undefined>;
  /**
   * Whether the check's budget has ended runs. A fix whose variants it cut keeps the outcomes decided so far (the
   * others count as not run); one cut by a cancel, or before any variant decided, gets no strength.
   */
  readonly budgetSpent?: () => boolean;
  /**
   * The check's budget, when it has one: the time it has left, and how many runs go at once. A fix whose strength
   * takes longer to decide than that (decidingMs) is not started (a check the budget ends half way says only
   * "strength unknown"), and `skipped` is told why.
   */
  readonly budget?: { readonly leftMs: () => number; readonly slots: number; readonly skipped: (index: number, reason: string) => void };
  /** Told each fix's variant limits, and which fixes share. */
  readonly logger?: Logger;
}

/**
 * What one fix's own check found; undefined when a cancel cut it short, the budget before any variant decided, or it
 * was not started because the budget could not decide it.
 */
type OwnResult = { readonly strength: TestStrength } | { readonly review: string } | undefined;

/**
 * About the wall time deciding a fix's strength takes, `slots` runs at a time: its control run (the failing tests, then
 * the rest: `restMs`) and all but the tenth of `variants` that strengthKnown may leave open, every one caught at its
 * first stage but one, which passes it and runs the rest too. Never less than the control run's two stages.
 */
export function decidingMs(stageOneMs: number, restMs: number, variants: number, control: boolean, slots: number): number {
  const controlMs = control ? stageOneMs + restMs : 0;
  const needed = variantsToPin(variants);
  const variantsMs = needed * stageOneMs + (needed > 0 ? restMs : 0);
  return Math.max(controlMs, (controlMs + variantsMs) / Math.max(1, slots));
}

/** The fix's own run times its variants are measured by: its slowest run, and its run of the failing tests when it had one. */
function ownRunsMs(verifier: VariantVerifier, candidate: CandidateResult): { slowestMs: number; stageOneMs?: number } {
  const slowestMs = Math.max(...candidate.runs.map((run) => run.durationMs));
  const stageOneMs = verifier.failingTestsRunMs?.(candidate.index);
  return stageOneMs === undefined ? { slowestMs } : { slowestMs, stageOneMs };
}

/**
 * How much longer than decidingMs a check is allowed to look before it is not started. Measured on the real-projects
 * bench: variants' runs took 1.5–2.8× the fix's own (those ran beside cheaper runs, and a run's overlay is made and
 * removed outside its time), and a check that started on the bare estimate ran out undecided in 4 of 24 requests.
 */
const ESTIMATE_MARGIN = 1.5;

/**
 * Why a fix's check was not started, or undefined when the budget left can decide it (or there is no budget).
 * `atLeast`: `variants` is a lower bound on those it would have, before they are made.
 */
function unaffordable(check: StrengthCheck, verifier: VariantVerifier, candidate: CandidateResult, variants: number, control: boolean, atLeast = false): string | undefined {
  if (!check.budget || variants === 0) return undefined;
  const own = ownRunsMs(verifier, candidate);
  // Past the failing tests a variant runs what the fix did: its reaching tests, its first run, where it ran only
  // those (not the full run the top-ranked fix had after them); else the whole suite.
  const restMs = verifier.reachingTestsOf?.(candidate.index) !== undefined ? candidate.runs[0].durationMs : own.slowestMs;
  const stageOneMs = own.stageOneMs ?? restMs;
  const needMs = ESTIMATE_MARGIN * decidingMs(stageOneMs, restMs, variants, control, check.budget.slots);
  const leftMs = check.budget.leftMs();
  if (needMs <= leftMs) return undefined;
  const variantRuns = atLeast ? `one variant at least, at ${seconds(stageOneMs)}, running the rest too` : `${variantsToPin(variants)} of its ${variants} variants at ${seconds(stageOneMs)} each, one of them running the rest too`;
  const runs = `${control ? 'its control run, ' : ''}${variantRuns}, ${check.budget.slots} at a time, and half as much again for start-up and load`;
  return `deciding #${candidate.index + 1} takes ${atLeast ? 'at least' : 'about'} ${seconds(needMs)} (${runs}), more than the ${seconds(Math.max(0, leftMs))} left of the check's budget`;
}

/** The limits for `candidate`'s variants: a multiple of its own runs of each stage, as the baseline sets candidates'. */
function variantLimit(verifier: VariantVerifier, candidate: CandidateResult): VariantLimit {
  const { slowestMs, stageOneMs } = ownRunsMs(verifier, candidate);
  const limit = (ms: number) => limitFromBaseline(ms, true, 1, VARIANT_LIMIT_FLOOR_MS)?.ms;
  const fullMs = limit(slowestMs) ?? VARIANT_LIMIT_FLOOR_MS;
  const failingTestsMs = stageOneMs !== undefined ? limit(stageOneMs) : undefined;
  return failingTestsMs === undefined || failingTestsMs === fullMs ? fullMs : { failingTestsMs, fullMs };
}

/** "each variant gets 2 s for the failing tests and 12.5 s for the full run (5× the fix's own run of each, at least 2 s)" */
export function describeLimit(limit: VariantLimit): string {
  const floor = `at least ${seconds(VARIANT_LIMIT_FLOOR_MS)}`;
  const basis = `${LIMIT_MULTIPLE}× the fix's own run of each, ${floor}`;
  if (typeof limit === 'number') return `each variant gets ${seconds(limit)} per run (${LIMIT_MULTIPLE}× the fix's slowest run, ${floor})`;
  return `each variant gets ${seconds(limit.failingTestsMs)} for the failing tests and ${seconds(limit.fullMs)} for the full run (${basis})`;
}

const times = (limit: VariantLimit, by: number): VariantLimit =>
  (typeof limit === 'number' ? by * limit : { failingTestsMs: by * limit.failingTestsMs, fullMs: by * limit.fullMs });

/** One fix's control run and variants; `cache` holds outcomes by variant text, shared by every fix of the request. */
async function checkOwn(check: StrengthCheck, candidate: CandidateResult, verifier: VariantVerifier, cache: Map<string, Promise<VariantOutcome | undefined>>): Promise<OwnResult> {
  const { index } = candidate;
  const limit = variantLimit(verifier, candidate);
  const reach = verifier.reachingTestsOf?.(index);
  // First from the fix's own runs alone, before its control text and variants are made (each parses the whole file,
  // 0.2 s for a long one): a fix the budget cannot decide with one variant is not started with more. Not for a fix
  // that changes no text of its own (a deletion): it has no variant.
  let tooDear = candidate.replacement.trim() !== '' ? unaffordable(check, verifier, candidate, 1, hasControlRun(check.languageId), true) : undefined;
  const control = tooDear === undefined ? await controlOf({ ...check, replacement: candidate.replacement }) : undefined;
  const variants = tooDear === undefined ? await strengthVariants({ ...check, replacement: candidate.replacement }) : [];
  const fresh = variants.filter((variant) => !cache.has(variant.fileText)).length;
  tooDear ??= unaffordable(check, verifier, candidate, fresh, control !== undefined);
  if (tooDear !== undefined) {
    check.logger?.info(`strength check of #${index + 1}: not started: ${tooDear}`);
    check.budget?.skipped(index, tooDear);
    return undefined;
  }
  check.logger?.info(`strength check of #${index + 1}: ${describeLimit(limit)}`);
  if (reach) check.logger?.info(`strength check of #${index + 1}: past the failing tests, its variants run only the ${reach.ran} tests that reach the change, as the fix did (the other ${reach.cannotReach} cannot reach it)`);
  // A variant that loops (`i >= n` in a for loop) would hold its slot for the whole test time limit, so its limit
  // follows the fix's own runs. A timeout is no verdict though (a loaded machine slows every run): the variant
  // runs once more with a longer limit, and one that still does not finish is undecided.
  const tryOne = (variant: Variant, i: number): Promise<VariantOutcome | undefined> => {
    const known = cache.get(variant.fileText);
    if (known) return known;
    const outcome = (async () => {
      const of = { fix: index, replacement: variant.replacement };
      const first = await verifier.tryVariant(`s${index}v${i}`, variant.fileText, limit, of);
      if (first !== 'timedOut') return first;
      const again = await verifier.tryVariant(`s${index}v${i}t`, variant.fileText, times(limit, RETRY_SLOWDOWN), of);
      return again === 'timedOut' ? 'undecided' : again;
    })();
    cache.set(variant.fileText, outcome);
    return outcome;
  };
  // The control run goes with the variants, not before them, so that one fix's runs fill every slot; its variants'
  // outcomes count only if it passes.
  const controlled = control === undefined ? Promise.resolve('survived' as const) : verifier.tryVariant(`s${index}c`, control, times(limit, RETRY_SLOWDOWN), { fix: index, replacement: candidate.replacement });
  const [controlOutcome, outcomes] = await Promise.all([controlled, Promise.all(variants.map(tryOne))]);
  if (controlOutcome === undefined) return undefined;
  if (controlOutcome === 'caught') return { review: CONTROL_FAILED };
  const decided = outcomes.some((outcome) => outcome === 'caught' || outcome === 'survived');
  if (outcomes.includes(undefined) && !(decided && check.budgetSpent?.())) return undefined;
  return { strength: { ...testStrength(variants, outcomes), ...(reach ? { reachingTests: reach } : {}) } };
}

/** The earlier fix of `index`'s behaviour group that runs its own variants, or undefined. */
function behaviourSource(index: number, groups: readonly (readonly number[])[] | undefined, ranking: readonly number[], owners: ReadonlyMap<number, unknown>): number | undefined {
  const group = groups?.find((g) => g.includes(index));
  if (!group) return undefined;
  return ranking.slice(0, ranking.indexOf(index)).find((earlier) => group.includes(earlier) && owners.has(earlier));
}

/**
 * Checks every verified candidate; each strength is reported as it completes, none for a candidate a cancel (or the
 * budget) cut short. A candidate that could steer the check is reported to `onReviewRequired` and gets no strength:
 * one that reads its own source or changes code outside the selected function (staticReviewReason), or whose control
 * run (the fix with comments added inside its change and at the end of the file) is caught. Sharing (the default): a
 * fix with the same text as an earlier one once spacing is normalised, or (once the behaviour check ends) with the
 * same behaviour as an earlier fix that runs its own variants, takes that fix's strength instead of running variants
 * of its own.
 */
export async function checkStrength(
  check: StrengthCheck,
  onStrength: (index: number, strength: TestStrength) => void,
  onReviewRequired: (index: number, reason: string) => void = () => undefined,
): Promise<void> {
  const sharing = check.sharing !== false;
  const owners = new Map<number, Promise<OwnResult>>();
  const cache = new Map<string, Promise<VariantOutcome | undefined>>();
  const byText = new Map<string, number>();
  const pending: Promise<void>[] = [];
  // One fix at a time, best first: its control run and variants fill the slots, and the next fix starts only once it
  // is decided, with the budget then left (fixes checked side by side all ran out of it undecided).
  let previous: Promise<unknown> = Promise.resolve();
  const own = (candidate: CandidateResult): Promise<OwnResult> => {
    const verifier = check.verifierFor?.(owners.size) ?? check.verifier;
    const result = previous.then(() => checkOwn(check, candidate, verifier, cache));
    previous = result.catch(() => undefined);
    owners.set(candidate.index, result);
    return result;
  };
  const report = async (index: number, result: Promise<OwnResult>, sharedFrom?: TestStrength['sharedFrom']) => {
    const found = await result;
    if (found && 'review' in found) return sharedFrom ? undefined : onReviewRequired(index, found.review);
    if (found) onStrength(index, sharedFrom ? { ...found.strength, sharedFrom } : found.strength);
  };
  // A fix whose source turns out to need review shares nothing: its equivalent runs its own variants then.
  const share = async (candidate: CandidateResult, from: number, by: 'text' | 'behaviour') => {
    const found = await owners.get(from);
    if (found && 'review' in found) return report(candidate.index, own(candidate));
    return report(candidate.index, Promise.resolve(found), { index: from, by });
  };
  const waiting: CandidateResult[] = [];
  const sameText: Array<{ candidate: CandidateResult; from: number }> = [];
  check.ranking.forEach((index, rank) => {
    const candidate = check.candidates.find((c) => c.index === index);
    if (!candidate) return;
    const steering = staticReviewReason(check, candidate);
    if (steering) return onReviewRequired(index, steering);
    const key = equivalenceKey(applyReplacement(check.originalText, check.start, check.end, candidate.replacement));
    const same = sharing ? byText.get(key) : undefined;
    if (same !== undefined) {
      check.logger?.info(`strength check of #${index + 1}: shares the variants of #${same + 1} (the same code once spacing is normalised)`);
      return sameText.push({ candidate, from: same });
    }
    byText.set(key, index);
    // The first fix starts at once; the others wait for the behaviour check's groups, when it runs.
    if (rank > 0 && sharing && check.groups) waiting.push(candidate);
    else pending.push(report(index, own(candidate)));
  });
  const behaviourShares = new Map<number, number>();
  if (waiting.length > 0) {
    const groups = await check.groups;
    for (const candidate of waiting) {
      const from = behaviourSource(candidate.index, groups, check.ranking, owners);
      if (from !== undefined) behaviourShares.set(candidate.index, from);
      if (from !== undefined) check.logger?.info(`strength check of #${candidate.index + 1}: shares the variants of #${from + 1} (the same outcome on every input the behaviour check tried)`);
      pending.push(from !== undefined ? share(candidate, from, 'behaviour') : report(candidate.index, own(candidate)));
    }
  }
  // After every owner is known: the fix with the same text may itself share an earlier fix's behaviour.
  for (const { candidate, from } of sameText) {
    const behaviour = behaviourShares.get(from);
    pending.push(behaviour !== undefined ? share(candidate, behaviour, 'behaviour') : share(candidate, from, 'text'));
  }
  await Promise.all(pending);
}
