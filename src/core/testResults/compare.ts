// Compares a candidate's per-test results with the baseline's: which failures it fixed, which passes it broke.
import { isInside, scopeOf, unique } from './ids';
import type { TestOutcome, TestResult } from './types';

/** What a candidate's run did to the baseline's tests. Ids are listed in the order the runs reported them. */
export interface BaselineDiff {
  /** Failing in the baseline, passing now (or, for a container, its tests ran now: it loads, builds or set up). */
  readonly fixed: string[];
  /** Failing now and not failing in the baseline: passing there, skipped there, or not there at all. */
  readonly broke: string[];
  /** Failing in the baseline and still failing now. */
  readonly stillFailing: string[];
  /**
   * Failing in the baseline, with no verdict now: not run, skipped, or left out by the selection. A candidate that
   * fixes the baseline's failures leaves this empty; a run that fell over before reaching them does not.
   */
  readonly missing: string[];
  /**
   * Passing in the baseline, with no verdict now. After a full run, tests that vanished (a file that stopped
   * loading cleanly, an early exit) deserve suspicion; after a selective run most are simply not selected.
   */
  readonly vanished: string[];
  /** Distinct ids that passed now. */
  readonly passed: number;
  /** Distinct ids that failed now. */
  readonly failed: number;
  /** passed + failed: the tests that ran to a verdict now (skipped ones did not). */
  readonly ranCount: number;
}

const rank: Record<TestOutcome, number> = { skipped: 0, passed: 1, failed: 2 };

/**
 * Each id's verdict when one run reports it more than once (retries, two tests of the same name): any failure
 * makes it failed, else any pass makes it passed.
 */
export function verdicts(results: readonly TestResult[]): Map<string, TestOutcome> {
  const out = new Map<string, TestOutcome>();
  for (const { id, outcome } of results) {
    const seen = out.get(id);
    if (seen === undefined || rank[outcome] > rank[seen]) out.set(id, outcome);
  }
  return out;
}

/** The ids that failed, once each, in report order: what a candidate's first, selective run asks for. */
export function failingIds(results: readonly TestResult[]): string[] {
  return [...verdicts(results)].filter(([, outcome]) => outcome === 'failed').map(([id]) => id);
}

/**
 * `now` (a candidate's run, full or selective) against `baseline` (the unmodified code's full run). A
 * baseline-failing id without a verdict now still counts as fixed when it is a container (a file, suite, hook or
 * package, see scopeOf) whose tests now ran: the container-level failure is gone, and its tests' own verdicts
 * land in `fixed`, `broke` and the counts like any other.
 */
export function diffAgainstBaseline(baseline: readonly TestResult[], now: readonly TestResult[]): BaselineDiff {
  const before = verdicts(baseline);
  const after = verdicts(now);
  const ranNow = [...after].filter(([, outcome]) => outcome !== 'skipped').map(([id]) => id);
  const fixed: string[] = [];
  const stillFailing: string[] = [];
  const missing: string[] = [];
  for (const id of failingIds(baseline)) {
    const outcome = after.get(id);
    if (outcome === 'failed') stillFailing.push(id);
    else if (outcome === 'passed') fixed.push(id);
    else if (ranNow.some((other) => isInside(other, scopeOf(id)))) fixed.push(id);
    else missing.push(id);
  }
  const broke = [...after].filter(([id, outcome]) => outcome === 'failed' && before.get(id) !== 'failed').map(([id]) => id);
  const vanished = [...before].filter(([id, outcome]) => outcome === 'passed' && (after.get(id) ?? 'skipped') === 'skipped').map(([id]) => id);
  const passed = [...after.values()].filter((outcome) => outcome === 'passed').length;
  const failed = [...after.values()].filter((outcome) => outcome === 'failed').length;
  return { fixed: unique(fixed), broke, stillFailing, missing, vanished, passed, failed, ranCount: passed + failed };
}
