// Repair rounds: a model none of whose candidates was verified is asked again, shown the candidates that failed.
import type { CandidatePool } from './candidatePool';
import { UserError } from '../base/errors';
import type { CandidateResult, FixEvent, Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { CandidateProvider, FailedAttempt, RepairContext } from '../contract/provider';
import { outboundLines, safeName } from '../base/outboundText';

/** Failed candidates a repair round passes on, newest first (the prompt shows fewer when they do not fit its budget). */
const MAX_ATTEMPTS = 12;
/** Lines of each failure passed on (why it failed, then the failing tests and their messages). */
const FAILURE_LINES = 6;
const FAILURE_LINE_CHARS = 200;
/** Failing tests named, and lines of each one's message (its assertion, expected and actual). */
const TESTS_SHOWN = 3;
const MESSAGE_LINES = 3;

/** The failing tests of a run's per-test report: each id, then the first lines of its message, indented. */
function failingTests(run: Verdict): string[] {
  const failures = run.failures ?? [];
  const lines = failures.slice(0, TESTS_SHOWN).flatMap(({ id, message }) => [
    `✗ ${safeName(id, 120)}`,
    ...(message ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(0, MESSAGE_LINES).map((line) => `  ${line}`),
  ]);
  return failures.length > TESTS_SHOWN ? [...lines, `… and ${failures.length - TESTS_SHOWN} more failing`] : lines;
}

/**
 * The first lines of a candidate's failure, for a model: its verdict's reason, then the failing tests from the
 * runner's per-test report (names, assertion messages with expected and actual). Never the run's free output: a
 * candidate can print anything there (a credential file, a token, encoded), and this goes to a model endpoint.
 * Lines with a long base64/hex run are dropped, each line is cut to 200 characters.
 */
export function failureExcerpt(candidate: CandidateResult): string[] {
  // A flaky candidate passed its first run: its failing run is the one that says what is wrong.
  const run: Verdict = candidate.runs.find((r) => r.status !== 'pass') ?? candidate.verdict;
  const exit = run.exitCode !== null ? ` (exit ${run.exitCode})` : '';
  const head = run.reason ?? (run.status === 'fail' ? `the tests failed${exit}` : `the test run ended with: ${run.status}${exit}`);
  const flaky = candidate.flaky ? [`flaky: passed ${candidate.runs.filter((r) => r.status === 'pass').length} of ${candidate.runs.length} runs`] : [];
  const cut = (line: string) => (line.length > FAILURE_LINE_CHARS ? `${line.slice(0, FAILURE_LINE_CHARS)}…` : line);
  return outboundLines([...flaky, head, ...failingTests(run)]).slice(0, FAILURE_LINES).map(cut);
}

/**
 * The distinct failed candidates among `asked`, newest round first: duplicates (already shown once) and unusable
 * answers (no code to show) are left out.
 */
export function failedAttempts(candidates: readonly CandidateResult[], asked: ReadonlySet<number>): FailedAttempt[] {
  return candidates
    .filter((c) => asked.has(c.index) && !c.verified && c.duplicateOf === null && c.diff !== '')
    .sort((a, b) => (b.round ?? 0) - (a.round ?? 0) || a.index - b.index)
    .map((c) => ({ replacement: c.replacement, failure: failureExcerpt(c) }));
}

export interface RoundsOptions {
  readonly provider: CandidateProvider;
  /** Rounds after the first, for a provider that `repairs`. */
  readonly repairRounds: number;
  /** Feeds one round's samples (labelled `round`) into verification; resolves with the indices of those obtained. */
  readonly ask: (round: number | undefined, repair: RepairContext | undefined) => Promise<readonly number[]>;
  /** Settles when every verdict so far is in. */
  readonly settled: () => Promise<unknown>;
  readonly pool: CandidatePool;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly onEvent: (event: FixEvent) => void;
}

/**
 * Asks `provider` for one round of samples and, if it `repairs`, up to `repairRounds` more while none is verified.
 * A repair round waits for every verdict, then asks for as many samples again, showing the distinct failed
 * candidates of the rounds before. The rounds stop at a verified candidate, a cancel or the total timeout, a round
 * that obtained no sample (the model is failing) and when no failed candidate is left to show.
 */
export async function askInRounds(options: RoundsOptions): Promise<void> {
  const { provider, pool, signal, logger } = options;
  if (!provider.repairs) {
    await options.ask(undefined, undefined);
    return;
  }
  const asked = new Set<number>();
  for (let round = 1; ; round++) {
    let repair: RepairContext | undefined;
    if (round > 1) {
      const failed = failedAttempts(pool.candidates, asked);
      if (failed.length === 0) {
        logger.info(`no candidate of ${provider.name} was verified, and none failed with code to show it: no repair round`);
        return;
      }
      repair = { round, failed: failed.slice(0, MAX_ATTEMPTS) };
      logger.info(`round ${round}: asking ${provider.name} for different fixes after ${failed.length} failed candidate${failed.length === 1 ? '' : 's'}`);
      options.onEvent({ type: 'repairRound', provider: provider.name, round, failed: failed.length });
    }
    let taken: readonly number[];
    try {
      taken = await options.ask(round, repair);
    } catch (error) {
      // A failed repair round (its longer prompt over the model's context, a used-up quota) keeps the earlier rounds.
      if (!repair || signal.aborted || !(error instanceof UserError)) throw error;
      const message = `${provider.name}, round ${round}: ${error.message}; keeping the earlier rounds' candidates`;
      logger.warn(message);
      options.onEvent({ type: 'warning', message });
      return;
    }
    for (const index of taken) asked.add(index);
    if (round > options.repairRounds || taken.length === 0) return;
    await options.settled();
    if (signal.aborted || pool.anyVerified) return;
  }
}
