// Without the baseline, candidates' passes are judged against the runs that came in before them; once every verdict
// is in, each verified one is judged again against all of them, so the order the runs finished in decides nothing.
import type { CandidateResult, FixEvent, Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { CandidatePool } from './candidatePool';
import type { SuiteCensus } from '../verification/suiteCensus';

/** Takes "verified" from every candidate whose passing runs ran fewer tests in a file than another run; returns how many. */
export function recheckAgainstCensus(pool: CandidatePool, census: SuiteCensus, logger: Logger, onEvent: (event: FixEvent) => void): number {
  let demoted = 0;
  for (const index of pool.ranking()) {
    const reason = census.shortfall(index);
    if (!reason) continue;
    demoted++;
    logger.warn(`candidate #${index + 1}: not verified after all: ${reason}`);
    const short = (verdict: Verdict): Verdict => (verdict.status === 'pass' ? { ...verdict, status: 'fail', reason, cause: 'fewerTests' } : verdict);
    const amended = pool.amend(index, (c): CandidateResult => ({ ...c, verified: false, verdict: short(c.verdict), runs: c.runs.map(short) }));
    amended.forEach((candidate) => onEvent({ type: 'verdict', candidate }));
  }
  return demoted;
}
