// The strength phase of a request: after the list is shown, the strength check on the verified fixes, on the request's
// run queue, metered and held to its budget (a share of the request), its cost said in the log and the result.
import type { Logger } from '../base/logger';
import type { CandidateResult, FixEvent, FixRequest, FixResult } from '../contract/fixRequest';
import type { StrengthCost, TestStrength } from '../contract/strength';
import type { TestExecutor } from '../execution/executor';
import type { Slot } from '../execution/runQueue';
import type { Verifier } from '../verification/verifier';
import { checkStrength } from '../verification/strengthRuns';
import { BUDGET_SPENT, DEFAULT_STRENGTH_BUDGET_PERCENT, StrengthMeter, describeStrengthCost, strengthBudgetMs } from '../verification/strengthBudget';
import { seconds } from '../base/duration';

export interface StrengthPhase {
  readonly request: FixRequest;
  readonly prepared: { readonly languageId: string; readonly relativePath: string; readonly text: string; readonly start: number; readonly end: number };
  readonly logger: Logger;
  readonly candidates: readonly CandidateResult[];
  /** The verified fixes, best first. */
  readonly ranking: readonly number[];
  readonly verifier: Verifier;
  readonly executor: TestExecutor;
  readonly slot: Slot;
  /** `performance.now()` when the request started: the budget is a share of the whole request. */
  readonly requestStarted: number;
  /** The behaviour check's groups once it ends, when it runs. */
  readonly groups?: Promise<readonly (readonly number[])[] | undefined>;
  readonly onEvent: (event: FixEvent) => void;
  readonly strengths: Map<number, TestStrength>;
  readonly reviewRequired: Map<number, string>;
}

/** What the phase leaves for the result: its cost, and the fixes the budget left unchecked. */
export interface StrengthOutcome {
  readonly cost: StrengthCost;
  readonly cutShort?: NonNullable<FixResult['strengthCutShort']>;
}

/** How firmly the tests pin each verified fix, the best first, every check held to the budget. */
export async function runStrengthPhase(phase: StrengthPhase): Promise<StrengthOutcome> {
  const { request, prepared, logger, verifier, executor, slot, strengths, onEvent } = phase;
  const started = performance.now();
  const percent = request.strengthBudget ?? DEFAULT_STRENGTH_BUDGET_PERCENT;
  const budgetMs = strengthBudgetMs(started - phase.requestStarted, percent);
  const meter = new StrengthMeter(budgetMs === undefined ? undefined : started + budgetMs);
  // Each fix's runs queue behind those of the fixes ranked above it (and behind candidates' and behaviour runs).
  const metered = meter.executor(executor);
  const verifierFor = (order: number) => verifier.through(metered, (run) => slot(run, -1 - order));
  const reviewRequired = (index: number, reason: string) => {
    phase.reviewRequired.set(index, reason);
    const message = `candidate #${index + 1}: review required, not ranked by strength: ${reason}`;
    logger.warn(message);
    onEvent({ type: 'warning', message });
  };
  let sharedFixes = 0;
  const skipped = new Map<number, string>();
  const budget = budgetMs === undefined ? undefined : {
    leftMs: () => started + budgetMs - performance.now(), slots: Math.max(1, request.parallel), skipped: (index: number, reason: string) => skipped.set(index, reason),
  };
  const { languageId, relativePath, text: originalText, start, end } = prepared;
  await checkStrength({
    level: request.strengthCheck === 'thorough' ? 'thorough' : 'quick', verifier: verifierFor(0), verifierFor, languageId, relativePath, originalText, start, end,
    candidates: phase.candidates, ranking: phase.ranking, sharing: request.strengthSharing !== false, ...(phase.groups ? { groups: phase.groups } : {}), logger,
    budgetSpent: () => meter.budgetSpent, ...(budget ? { budget } : {}),
  }, (index, strength) => {
    if (strength.sharedFrom) sharedFixes++;
    strengths.set(index, strength);
    onEvent({ type: 'strength', index, strength });
  }, reviewRequired);
  const cost: StrengthCost = { runs: meter.runs, durationMs: Math.round(performance.now() - started), ...(budgetMs !== undefined ? { budgetMs } : {}), sharedFixes };
  logger.info(describeStrengthCost(cost, performance.now() - phase.requestStarted));
  const unchecked = phase.ranking.filter((index) => !strengths.has(index) && !phase.reviewRequired.has(index));
  if ((!meter.budgetSpent && skipped.size === 0) || budgetMs === undefined) return { cost };
  const setting = `${seconds(budgetMs)}, ${percent}% of the request (--strength-budget / verifiedFix.strengthBudget)`;
  const [first] = skipped.values();
  // A fix the budget could not have decided gets no run at all, and the message says so rather than "ran out".
  const message = meter.budgetSpent ? `${BUDGET_SPENT}: ${setting}` : `the strength check's budget (${setting}) could not decide a fix: ${first}`;
  const fixes = (indexes: readonly number[]) => indexes.map((i) => `#${i + 1}`).join(', ');
  const partial = phase.ranking.filter((index) => strengths.get(index)?.notRun);
  logger.info(`${message}${partial.length ? `; ${fixes(partial)} kept the variants decided before it` : ''}${unchecked.length ? `; ${fixes(unchecked)} left without a strength` : ''}`);
  if (unchecked.length === 0) return { cost };
  const reasons = Object.fromEntries(unchecked.filter((index) => skipped.has(index)).map((index) => [index, `the strength check's budget (${setting}) could not decide it: ${skipped.get(index)}`]));
  return { cost, cutShort: { message, unchecked, kind: 'budget', ...(Object.keys(reasons).length ? { reasons } : {}) } };
}
