// What candidates are judged against once the baseline has run, and the judges that read a run's printed summary
// beside its per-test report.
import type { TestEvidence, Verdict, VerdictCause } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import { listIds, planFromBaseline } from './stagedVerification';
import type { PerTestPlan } from './stagedVerification';
import { stopsEarly } from '../testResults/selection';
import type { ExecutedRun } from '../execution/executor';
import { seconds } from '../base/duration';
import { limitFromBaseline } from './timeLimits';
import type { BaselineLimit } from './timeLimits';
import type { ResolvedRunner } from '../testCommand/runner';
import type { RunnerAdapter } from '../testResults/types';
import { parseTestSummary, testsRun } from '../testResults/summary';
import { splitId } from '../testResults/ids';
import type { TestSummary } from '../testResults/summary';
import type { Reach } from './reachScope';

/** What candidates are judged against once the baseline has run. */
export interface Reference {
  /** The baseline's per-test results, when its runner's report was read. */
  readonly plan?: PerTestPlan;
  /** The baseline's printed test summary, when there was one (the only judge without a plan, a witness with one). */
  readonly summary?: TestSummary;
  /** The time limit the baseline's duration sets for candidates' runs, when it ran its tests to the end. */
  readonly limit?: BaselineLimit;
  /** Which tests ran the selected function on the unmodified code (the baseline's coverage), or why none are known. */
  readonly reach?: Reach;
}

const NO_SUMMARY = 'the run printed no test summary, though the unmodified code\'s run did: the tests did not run to the end';

/**
 * A run that exits 0 passes only if its tests ran: a candidate that exits before them (`process.exit(0)` at import,
 * `os._exit(0)`) or skips them leaves no summary, or one with fewer tests than the unmodified code's run.
 * `reference` is the baseline's summary; without one, only "no test ran at all" can be told.
 */
export function judgePass(verdict: Verdict, reference: TestSummary | undefined): Verdict {
  if (verdict.status !== 'pass') return verdict;
  const summary = parseTestSummary(verdict.output);
  const fail = (reason: string, cause: VerdictCause): Verdict => ({ ...verdict, status: 'fail', reason, cause });
  if (summary && testsRun(summary) === 0) return fail('no test ran', 'noTests');
  if (!reference) return verdict;
  if (!summary) return fail(NO_SUMMARY, 'noSummary');
  if (testsRun(summary) < testsRun(reference)) return fail(`fewer tests ran than on the unmodified code (${testsRun(summary)} of ${testsRun(reference)})`, 'fewerTests');
  return verdict;
}

/**
 * The runner's report comes from the same untrusted process as the tests: a candidate that learns its path (from a
 * command line, or `sys.argv` inside pytest) can write "passed" for every test and exit 0. The printed summary is a
 * second witness: it must be there when the baseline printed one, and must not count fewer tests than the report
 * claims ran (fewer, not different: a report lists tests of the same name once).
 */
export function crossCheck(verdict: Verdict, tests: TestEvidence, reference: TestSummary | undefined): Verdict {
  const printed = parseTestSummary(verdict.output);
  if (reference && !printed) return { ...verdict, status: 'fail', reason: NO_SUMMARY, cause: 'noSummary' };
  const reported = tests.passed + tests.failed;
  if (printed && testsRun(printed) < reported) {
    return { ...verdict, status: 'error', reason: `the test report claims ${reported} tests ran, the printed summary ${testsRun(printed)}: the report was not written by the runner alone`, cause: 'forgedReport' };
  }
  return verdict;
}

/**
 * The reference from the baseline's run; says once in the log when candidates fall back to the whole command.
 * `width`: the test files the baseline started at once (wideRuns.ts), more than the other runs may.
 */
export function referenceFrom(run: ExecutedRun, runner: ResolvedRunner | undefined, testCommand: string, logger: Logger, width = 1): Reference {
  const summary = parseTestSummary(run.verdict.output);
  const ranToEnd = (plan: boolean) => (run.verdict.status === 'pass' || run.verdict.status === 'fail') && (plan || summary !== undefined);
  // A failed run of a command that stops at its first failure stopped at the bug's first failing test: the option on
  // the command, or what the run's report says its configuration set.
  const configured = (adapter: RunnerAdapter) => {
    const setting = adapter.stopsEarly?.(run.report ?? '');
    return setting ? `${setting}, from its configuration` : undefined;
  };
  const early = runner && 'adapter' in runner && run.verdict.status === 'fail' ? (stopsEarly(runner.adapter.name, runner.base) ?? configured(runner.adapter)) : undefined;
  const limitOf = (plan: boolean, files = width) => {
    // A suite of fewer files than the slots started no more files at once than it has.
    const found = limitFromBaseline(run.verdict.durationMs, ranToEnd(plan), Math.min(width, files));
    const limit = found && early ? { ...found, failingTestsOnly: `the command stops at its first failure (${early}), so the unmodified code's run stopped at the bug's first failing test and its time says nothing of the whole suite's` } : found;
    if (limit?.failingTestsOnly) logger.info(`time limit: each candidate's run of the failing tests gets ${seconds(limit.ms)} (${limit.basis}), at most the test timeout; its full runs get the test timeout: ${limit.failingTestsOnly}`);
    else if (limit) logger.info(`time limit: each candidate's run gets ${seconds(limit.ms)} (${limit.basis}), at most the test timeout`);
    else logger.info('time limit: the test timeout (the unmodified code\'s run did not run its tests to the end, so its time says nothing)');
    return limit ? { limit } : {};
  };
  if (runner && 'adapter' in runner) {
    const planned = planFromBaseline(runner.adapter, runner.base, run);
    if ('plan' in planned) {
      const { failing, baselineRan } = planned.plan;
      logger.info(`per-test results (${runner.adapter.name}): ${failing.length} of ${baselineRan} tests fail on the unmodified code${failing.length ? `: ${listIds(failing)}` : ''}`);
      const files = new Set(planned.plan.baseline.map((test) => splitId(test.id).scope)).size;
      return { plan: planned.plan, ...(summary ? { summary } : {}), ...limitOf(true, files) };
    }
    logger.warn(`per-test results: ${planned.problem}; each candidate runs the whole command`);
  }
  if (!summary) {
    logger.warn(`the output of "${testCommand}" has no test summary this tool can read: a pass is judged by its exit code alone, so a candidate that exits 0 before the tests run would pass`);
  }
  return summary ? { summary, ...limitOf(false) } : { ...limitOf(false) };
}
