// The top-ranked verified fix runs the full suite once before it is shown as verified on everything: the others keep
// "verified on the N tests that reach this change". A full run that fails where the reaching tests passed is a
// disagreement (the safety argument's conditions did not hold): that fix is not verified, and the next one is tried.
import type { CandidateResult, FixEvent } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import { applyReplacement } from '../base/textRange';
import type { CandidatePool } from './candidatePool';
import type { Verifier } from '../verification/verifier';

export interface TopFixContext {
  readonly pool: CandidatePool;
  readonly verifier: Verifier;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly onEvent: (event: FixEvent) => void;
}

/** Runs the full suite for the best verified fix that ran only its reaching tests; returns the disagreements found. */
export async function fullRunForTopFix(context: TopFixContext): Promise<number> {
  const { pool, verifier, originalText, start, end, signal, logger, onEvent } = context;
  let disagreements = 0;
  for (const index of pool.ranking()) {
    const top = pool.candidates.find((c) => c.index === index);
    // The best fix already ran the whole command: nothing is left to show.
    if (!top?.reachingTests || signal.aborted) return disagreements;
    const full = await verifier.fullSuiteRun(applyReplacement(originalText, start, end, top.replacement), `c${index}s`);
    if (full.verdict.cancelled) return disagreements;
    const passed = full.verdict.status === 'pass';
    const amended = pool.amend(index, (c): CandidateResult => {
      const { reachingTests: _reach, ...rest } = c;
      void _reach;
      return passed
        ? { ...rest, runs: [...c.runs, full.verdict], ...(full.tests ? { tests: full.tests } : {}) }
        : { ...c, runs: [...c.runs, full.verdict], verified: false, ...(full.tests ? { tests: full.tests } : {}) };
    });
    if (passed) {
      logger.info(`candidate #${index + 1}: the top-ranked fix passed the full suite too (it was verified on the ${top.reachingTests.ran} tests that reach the change)`);
      amended.forEach((candidate) => onEvent({ type: 'verdict', candidate }));
      return disagreements;
    }
    disagreements++;
    const message = `candidate #${index + 1} passed the ${top.reachingTests.ran} tests that reach the change but failed the full suite (${full.verdict.reason ?? full.verdict.status}): not verified; the other tests could reach it after all`;
    logger.warn(message);
    onEvent({ type: 'warning', message });
    amended.forEach((candidate) => onEvent({ type: 'verdict', candidate }));
  }
  return disagreements;
}
