// Staged verification: the baseline's per-test results say which tests fail; a candidate first runs only those, and
// the full suite only if it fixes them. Every verdict then carries which tests it turned green or broke.
import type { ExecutedRun } from '../execution/executor';
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import { diffAgainstBaseline, failingIds } from '../testResults/compare';
import type { BaselineDiff } from '../testResults/compare';
import type { RunnerAdapter, TestResult } from '../testResults/types';
import { splitId } from '../testResults/ids';
import { lastErrorLine } from '../testResults/failureExcerpt';

/** What the baseline's report told about the suite, for judging every candidate of the request. */
export interface PerTestPlan {
  readonly adapter: RunnerAdapter;
  readonly base: string;
  readonly baseline: readonly TestResult[];
  /** F: the ids that failed on the unmodified code, in report order. */
  readonly failing: readonly string[];
  /** Tests that ran to a verdict on the unmodified code (skipped ones not counted). */
  readonly baselineRan: number;
}

export type Stage = 'failing-tests' | 'full';

/** The file a test id belongs to: its scope, or for pytest's node ids (`tests/test_a.py::Class::test`) the path. */
export function fileOf(id: string): string {
  return splitId(id).scope.split('::')[0];
}

/**
 * The failing tests of one file, where they span several: a candidate that still fails one of them fails stage 1
 * whatever the others do, and finding that out costs one file's run instead of every failing file's. The file with
 * the most failing tests, as a wrong candidate most likely still fails one of those. The plan it returns judges a
 * run of that file alone (the other failing tests are not expected in it). Undefined when one file holds them all.
 */
export function failingSample(plan: PerTestPlan): PerTestPlan | undefined {
  const byFile = new Map<string, string[]>();
  for (const id of plan.failing) {
    const file = fileOf(id);
    byFile.set(file, [...(byFile.get(file) ?? []), id]);
  }
  if (byFile.size < 2) return undefined;
  const sample = [...byFile.values()].reduce((best, ids) => (ids.length > best.length ? ids : best));
  const failing = new Set(plan.failing);
  const kept = new Set(sample);
  return { ...plan, failing: sample, baseline: plan.baseline.filter((test) => !failing.has(test.id) || kept.has(test.id)) };
}

/**
 * The plan from the baseline's run, or why there is none (the request then runs the whole command per candidate).
 * A failed baseline without a failing test (a syntax error, a missing command, a collection error, zero tests)
 * gives nothing to select.
 */
export function planFromBaseline(adapter: RunnerAdapter, base: string, run: ExecutedRun): { plan: PerTestPlan } | { problem: string } {
  const baseline = adapter.parse(run.report ?? '', run.cwd ?? '');
  const failing = failingIds(baseline);
  const { verdict } = run;
  if (baseline.length === 0) {
    const last = lastErrorLine(verdict.output);
    const said = last ? `; the last error it printed: ${last}` : '';
    return { problem: `the unmodified code's run left no ${adapter.name} test report (${verdict.reason ?? `exit ${verdict.exitCode}`}${said}): a syntax error, a missing command, a collection error, no tests, or a test that ended the process (process.exit, os._exit)` };
  }
  if (verdict.status !== 'pass' && failing.length === 0) {
    return { problem: `the unmodified code's run failed (${verdict.reason ?? `exit ${verdict.exitCode}`}) without any failing test` };
  }
  const ran = diffAgainstBaseline(baseline, baseline).ranCount;
  return { plan: { adapter, base, baseline, failing, baselineRan: ran } };
}

const MAX_LISTED = 3;
/** Failing tests whose messages a verdict keeps for its excerpt. */
const MAX_FAILURES_KEPT = 5;

/** "a, b, c and 4 more" */
export function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_LISTED).join(', ');
  return ids.length > MAX_LISTED ? `${shown} and ${ids.length - MAX_LISTED} more` : shown;
}

/** Why the per-test results say a run is no pass, or undefined when they say it is. */
function problemOf(diff: BaselineDiff, plan: PerTestPlan, stage: Stage): string | undefined {
  if (diff.ranCount === 0) return 'no test ran';
  // Where a run stopped at a failure (stage 1, or the user's `--bail`), the failing tests it never reached are not
  // known to fail: the ones that did are named, the others counted.
  if (diff.stillFailing.length > 0 && diff.missing.length > 0) return `still failing: ${listIds(diff.stillFailing)} (${diff.missing.length} more of the failing tests did not run)`;
  const unfixed = [...diff.stillFailing, ...diff.missing];
  if (unfixed.length > 0) return `still failing: ${listIds(unfixed)}`;
  if (stage === 'failing-tests') return undefined;
  // A test the baseline never reported was not reached there (`--bail`, `-x`, a file that did not load): failing now,
  // it was not broken by the candidate, only never seen passing.
  const seen = new Set(plan.baseline.map((test) => test.id));
  const broke = diff.broke.filter((id) => seen.has(id));
  if (broke.length > 0) return `broke: ${listIds(broke)}`;
  if (diff.broke.length > 0) return `fails: ${listIds(diff.broke)} (the unmodified code's run stopped before reaching it)`;
  if (diff.vanished.length > 0) return `tests that passed on the unmodified code did not run: ${listIds(diff.vanished)}`;
  if (diff.ranCount < plan.baselineRan) return `fewer tests ran than on the unmodified code (${diff.ranCount} of ${plan.baselineRan})`;
  return undefined;
}

/**
 * Judges a run by its per-test results against the baseline: a pass needs exit 0 and every baseline failure reported
 * passed (not skipped, not missing); a full run also needs no test broken and no fewer tests run. Where the baseline
 * stopped early (`--bail`), "no fewer tests" counts the tests it ran: a fix runs more, since it gets past the failure.
 */
export function judgeRun(run: ExecutedRun, plan: PerTestPlan, stage: Stage): { verdict: Verdict; tests: TestEvidence } {
  const results = plan.adapter.parse(run.report ?? '', run.cwd ?? '');
  const diff = diffAgainstBaseline(plan.baseline, results);
  const stillFailing = diff.stillFailing.length > 0 ? diff.stillFailing : diff.missing;
  const tests: TestEvidence = { fixed: diff.fixed, broke: diff.broke, stillFailing, passed: diff.passed, failed: diff.failed };
  const failed = results.filter((test) => test.outcome === 'failed').slice(0, MAX_FAILURES_KEPT);
  const verdict = failed.length > 0 ? { ...run.verdict, failures: failed.map(({ id, message }) => (message ? { id, message } : { id })) } : run.verdict;
  if (verdict.status !== 'pass' && verdict.status !== 'fail') return { verdict, tests };
  const problem = problemOf(diff, plan, stage);
  if (problem) return { verdict: { ...verdict, status: 'fail', reason: problem, cause: 'testsFailed' }, tests };
  if (verdict.status === 'fail') {
    if (verdict.reason) return { verdict, tests };
    return { verdict: { ...verdict, reason: `every test passed, but the command failed (exit ${verdict.exitCode})`, cause: 'commandFailed' }, tests };
  }
  return { verdict, tests };
}
