// How one candidate is verified: the static check, the failing tests first, the full command, confirmation runs,
// each judged against what the baseline showed.
import type { Evidence, TestEvidence, Verdict, VerdictCause } from '../contract/fixRequest';
import type { Logger } from '../base/logger';

import { describeTestRunEdits, findTestRunEdits } from '../security/testRunEdits';
import { judgeRun, listIds, planFromBaseline } from './stagedVerification';
import type { PerTestPlan } from './stagedVerification';
import { errorVerdict } from '../execution/executor';
import type { ExecutedRun, RunOptions, TestExecutor } from '../execution/executor';
import { limitFromBaseline, runLimit, seconds, timeoutReason } from './timeLimits';
import type { BaselineLimit } from './timeLimits';
import type { ResolvedRunner } from '../testCommand/runner';
import { parseTestSummary, testsRun } from '../testResults/summary';
import type { TestSummary } from '../testResults/summary';
import { reporterCommand } from '../testResults/reporterCommand';
import type { ReporterRun } from '../testResults/reporterCommand';

/** What candidates are judged against once the baseline has run. */
export interface Reference {
  /** The baseline's per-test results, when its runner's report was read. */
  readonly plan?: PerTestPlan;
  /** The baseline's printed test summary, when there was one (the only judge without a plan, a witness with one). */
  readonly summary?: TestSummary;
  /** The time limit the baseline's duration sets for candidates' runs, when it ran its tests to the end. */
  readonly limit?: BaselineLimit;
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
function crossCheck(verdict: Verdict, tests: TestEvidence, reference: TestSummary | undefined): Verdict {
  const printed = parseTestSummary(verdict.output);
  if (reference && !printed) return { ...verdict, status: 'fail', reason: NO_SUMMARY, cause: 'noSummary' };
  const reported = tests.passed + tests.failed;
  if (printed && testsRun(printed) < reported) {
    return { ...verdict, status: 'error', reason: `the test report claims ${reported} tests ran, the printed summary ${testsRun(printed)}: the report was not written by the runner alone`, cause: 'forgedReport' };
  }
  return verdict;
}

/** The reference from the baseline's run; says once in the log when candidates fall back to the whole command. */
export function referenceFrom(run: ExecutedRun, runner: ResolvedRunner | undefined, testCommand: string, logger: Logger): Reference {
  const summary = parseTestSummary(run.verdict.output);
  const ranToEnd = (plan: boolean) => (run.verdict.status === 'pass' || run.verdict.status === 'fail') && (plan || summary !== undefined);
  const limitOf = (plan: boolean) => {
    const limit = limitFromBaseline(run.verdict.durationMs, ranToEnd(plan));
    if (limit) logger.info(`time limit: each candidate's run gets ${seconds(limit.ms)} (${limit.basis}), at most the test timeout`);
    else logger.info('time limit: the test timeout (the unmodified code\'s run did not run its tests to the end, so its time says nothing)');
    return limit ? { limit } : {};
  };
  if (runner && 'adapter' in runner) {
    const planned = planFromBaseline(runner.adapter, runner.base, run);
    if ('plan' in planned) {
      const { failing, baselineRan } = planned.plan;
      logger.info(`per-test results (${runner.adapter.name}): ${failing.length} of ${baselineRan} tests fail on the unmodified code${failing.length ? `: ${listIds(failing)}` : ''}`);
      return { plan: planned.plan, ...(summary ? { summary } : {}), ...limitOf(true) };
    }
    logger.warn(`per-test results: ${planned.problem}; each candidate runs the whole command`);
  }
  if (!summary) {
    logger.warn(`the output of "${testCommand}" has no test summary this tool can read: a pass is judged by its exit code alone, so a candidate that exits 0 before the tests run would pass`);
  }
  return summary ? { summary, ...limitOf(false) } : { ...limitOf(false) };
}

const emptyEvidence: TestEvidence = { fixed: [], broke: [], stillFailing: [], passed: 0, failed: 0 };

export interface VerifierOptions {
  readonly executor: TestExecutor;
  /** Settles when the baseline has run (at once, empty, without a baseline). */
  readonly reference: Promise<Reference>;
  /** The full command with the runner's reporter, when the runner is one this tool reads. */
  readonly fullCommand: ReporterRun | undefined;
  readonly staged: boolean;
  readonly requiredRuns: number;
  readonly languageId: string;
  readonly signal: AbortSignal;
  /**
   * Takes one of the request's parallel slots for one run. Slots are held per run, not per candidate: a candidate's
   * short first run does not wait behind another's full suite, and its confirmation can run beside its first full run.
   */
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
  /** The request's test timeout, the upper bound of every limit (a baseline limit above it does not apply). */
  readonly testTimeoutMs?: number;
}

/** Verifies candidates of one request; `verify` resolves with the runs, or undefined when a cancel left none. */
export class Verifier {
  /** The reference once the baseline is in: runs that start before it (unstaged ones) get the test timeout. */
  private settled?: Reference;

  constructor(private readonly options: VerifierOptions) {
    void options.reference.then((reference) => (this.settled = reference));
  }

  /** Runs `label` under the limit the baseline sets (or `ownMs`, when shorter); a timeout's reason says which. */
  private async limitedRun(fileText: string, label: string, options: RunOptions, ownMs?: number): Promise<ExecutedRun> {
    const { ms, basis } = runLimit(this.settled?.limit, this.options.testTimeoutMs, ownMs);
    const run = await this.options.slot(() => this.options.executor.run(fileText, label, { ...options, ...(ms !== undefined ? { timeoutMs: ms } : {}) }));
    if (run.verdict.status !== 'timeout' || basis === undefined || ms === undefined) return run;
    return { ...run, verdict: { ...run.verdict, reason: timeoutReason(ms, basis) } };
  }

  async verify(index: number, selection: string, replacement: string, fileText: string): Promise<{ runs: Verdict[]; evidence: Evidence } | undefined> {
    const { executor, requiredRuns, signal } = this.options;
    // Edits that change how the tests run rather than what the code does are refused before anything runs.
    const edits = findTestRunEdits(this.options.languageId, selection, replacement);
    if (edits.length > 0) return { runs: [{ ...errorVerdict(describeTestRunEdits(edits), 0, 'staticCheck'), status: 'fail' }], evidence: {} };
    // A candidate that still fails the baseline's failing tests costs one short run and is a failed sample.
    const first = await this.runFailingTests(fileText, `c${index}f`);
    if (first?.verdict.cancelled) return undefined;
    if (first && first.verdict.status !== 'pass') return { runs: [first.verdict], evidence: { stage: 'failing-tests', tests: first.tests } };
    // Past the failing tests a pass is likely: where runs cannot reach each other, its confirmations run beside it.
    if (first && !executor.runsCanInterfere && requiredRuns > 1) {
      const all = await Promise.all(Array.from({ length: requiredRuns }, (_, i) => this.runFull(fileText, i === 0 ? `c${index}` : `c${index}r${i + 1}`, false)));
      if (all[0].verdict.cancelled) return undefined;
      const finished = all.filter((r) => !r.verdict.cancelled);
      const tests = finished.find((r) => r.verdict.status !== 'pass')?.tests ?? finished[finished.length - 1].tests;
      return { runs: finished.map((r) => r.verdict), evidence: { stage: 'full', ...(tests ? { tests } : {}) } };
    }
    const full = await this.runFull(fileText, `c${index}`, false);
    if (full.verdict.cancelled) return undefined;
    const runs = [full.verdict];
    let tests = full.tests;
    // Confirmation runs catch flaky passes: a pass is shown only if it repeats (the last one alone where runs can interfere).
    while (runs[0].status === 'pass' && runs.length < requiredRuns && !signal.aborted) {
      const alone = executor.runsCanInterfere && runs.length === requiredRuns - 1;
      const again = await this.runFull(fileText, `c${index}r${runs.length + 1}`, alone);
      if (again.verdict.cancelled) break;
      runs.push(again.verdict);
      tests = again.tests ?? tests;
    }
    return { runs, evidence: { ...(first || tests ? { stage: 'full' as const } : {}), ...(tests ? { tests } : {}) } };
  }

  /**
   * A variant of a verified fix: caught when it fails the baseline's failing tests or, past them, one full run.
   * Undefined when a cancel ended it.
   */
  async tryVariant(label: string, fileText: string, timeoutMs: number): Promise<'caught' | 'survived' | undefined> {
    const first = await this.runFailingTests(fileText, `${label}f`, timeoutMs);
    if (first?.verdict.cancelled) return undefined;
    if (first && first.verdict.status !== 'pass') return 'caught';
    const full = await this.runFull(fileText, label, false, timeoutMs);
    if (full.verdict.cancelled) return undefined;
    return full.verdict.status === 'pass' ? 'survived' : 'caught';
  }

  /** One full run of the command, judged by the per-test plan or, without one, by the test summary. */
  private async runFull(fileText: string, label: string, alone: boolean, timeoutMs?: number): Promise<{ verdict: Verdict; tests?: TestEvidence }> {
    const run = await this.limitedRun(fileText, label, { alone, ...this.options.fullCommand }, timeoutMs || undefined);
    if (run.verdict.cancelled) return run;
    const { plan, summary } = await this.options.reference;
    if (!plan) return { verdict: run.verdict.status === 'pass' ? judgePass(run.verdict, summary) : run.verdict };
    const judged = judgeRun(run, plan, 'full');
    return judged.verdict.status === 'pass' ? { ...judged, verdict: crossCheck(judged.verdict, judged.tests, summary) } : judged;
  }

  /** Stage 1: only the tests that failed on the baseline; undefined when there is nothing to select. */
  private async runFailingTests(fileText: string, label: string, timeoutMs?: number): Promise<{ verdict: Verdict; tests: TestEvidence } | undefined> {
    const { plan } = await this.options.reference;
    const command = plan && this.options.staged && plan.failing.length > 0 ? reporterCommand(plan.adapter, plan.base, plan.failing) : undefined;
    if (!plan || !command) return undefined;
    const run = await this.limitedRun(fileText, label, { ...command }, timeoutMs || undefined);
    return run.verdict.cancelled ? { verdict: run.verdict, tests: emptyEvidence } : judgeRun(run, plan, 'failing-tests');
  }
}
