// What `verified-fix fix` prints: the `--json` document and the report for people, from one FixResult.
import type { CandidateResult, FixResult } from '../core/contract/fixRequest';
import type { TestStrength } from '../core/contract/strength';
import { describeStrength, strengthKnown, uncheckedBecause } from '../core/verification/strengthCheck';
import { describeStrengthCost } from '../core/verification/strengthBudget';
import { describeBehaviour, undecidedLine } from '../core/behaviour/describe';
import { candidateLine } from '../core/engine/describeEvent';
import { taskPassAtK } from '../core/statistics/passAtK';
import { CLI_NAMES, noFixAdvice } from '../core/verification/noFixAdvice';
import { failureExcerpt as sharedExcerpt } from '../core/testResults/failureExcerpt';
import { FULL_RUN_NOT_REACHED, verifiedOn } from '../core/verification/evidence';

/** Surviving variants printed per verified fix (all are in `--json`). */
const MAX_SURVIVORS_SHOWN = 3;

/** Characters of a failed run's output kept in `--json`: enough for an assertion and its stack, bounded for bots. */
const FAILURE_EXCERPT_CHARS = 2000;

/** The first lines of a failure (its reason first), as a bot would quote them. */
function failureExcerpt(verdict: CandidateResult['verdict']): string {
  const text = [verdict.reason, ...sharedExcerpt(verdict, 30)].filter(Boolean).join('\n');
  return text.length > FAILURE_EXCERPT_CHARS ? `${text.slice(0, FAILURE_EXCERPT_CHARS)}…` : text;
}

function strengthJson(s: TestStrength): object {
  const survivors = s.survivors.map(({ replacement, diff }) => ({ replacement, diff }));
  const shared = s.sharedFrom ? { sharedWith: s.sharedFrom.index + 1, sharedBy: s.sharedFrom.by } : {};
  const reach = s.reachingTests ? { reachingTests: { ran: s.reachingTests.ran, cannotReach: s.reachingTests.cannotReach } } : {};
  return { variants: s.variants, caught: s.caught, weak: s.weak, undecided: s.undecided ?? 0, notRun: s.notRun ?? 0, known: s.variants > 0 && strengthKnown(s), survivors, ...shared, ...reach };
}

/** One run as `--json` keeps it: enough to tell afterwards why a confirmation failed. */
function runDetail(run: CandidateResult['verdict'], setAside: string | undefined): object {
  return {
    status: run.status,
    ...(run.reason ? { reason: run.reason } : {}),
    durationMs: run.durationMs,
    ...(run.status !== 'pass' ? { failure: failureExcerpt(run) } : {}),
    ...(setAside ? { setAside } : {}),
  };
}

/** The `--json` document; pass@k and pass^k are this task's for `k` (capped at n), as the human report prints them. */
export function fixJson(result: FixResult, lines: [number, number], k: number): object {
  const stats = taskPassAtK(result.samples, result.passed, k);
  return {
    file: result.relativePath,
    lines,
    testCommand: result.testCommand,
    baseline: result.baseline
      ? { status: result.baseline.status, durationMs: result.baseline.durationMs, perTest: result.perTest, failingTests: result.failingTests, flakyTests: result.flakyTests ?? [] }
      : null,
    baselinePassed: result.baselinePassed,
    samples: result.samples,
    passed: result.passed,
    lost: result.lost.map((l) => l.message),
    k: stats.k,
    passAtK: stats.passAtK,
    passHatK: stats.passHatK,
    candidates: result.candidates.map((c) => ({
      index: c.index,
      number: c.index + 1,
      ...(c.round !== undefined ? { round: c.round } : {}),
      status: c.verdict.status,
      ...(c.verdict.reason ? { reason: c.verdict.reason } : {}),
      durationMs: c.verdict.durationMs,
      duplicateOf: c.duplicateOf,
      runs: c.runs.map((r) => r.status),
      runDetails: c.runs.map((r, i) => runDetail(r, c.setAside?.find((s) => s.run === i)?.why)),
      verified: c.verified,
      flaky: c.flaky,
      replacement: c.replacement,
      diff: c.diff,
      ...(c.stage ? { stage: c.stage } : {}),
      ...(c.confirmedOn ? { confirmedOn: c.confirmedOn } : {}),
      ...(c.reachingTests ? { reachingTests: { ...c.reachingTests, note: verifiedOn(c.reachingTests) } } : {}),
      ...(c.tests ? { tests: { fixed: c.tests.fixed, broke: c.tests.broke, passed: c.tests.passed, failed: c.tests.failed } } : {}),
      ...(c.verdict.status !== 'pass' ? { failure: failureExcerpt(c.verdict) } : {}),
      ...(c.strength ? { strength: strengthJson(c.strength) } : {}),
      ...(c.reviewRequired ? { reviewRequired: c.reviewRequired } : {}),
    })),
    verified: result.verified,
    ...(result.behaviour ? { behaviour: result.behaviour } : {}),
    ...(result.stoppedEarly ? { stoppedEarly: result.stoppedEarly.message } : {}),
    ...(result.strengthCutShort ? { strengthCutShort: result.strengthCutShort } : {}),
    ...(result.strengthCost ? { strengthCost: { ...result.strengthCost, share: result.durationMs > 0 ? Number((result.strengthCost.durationMs / result.durationMs).toFixed(3)) : 0 } } : {}),
    ...(result.passedFailingTestsOnly ? { passedFailingTestsOnly: result.passedFailingTestsOnly.map((c) => ({ ...c, number: c.index + 1, note: FULL_RUN_NOT_REACHED })) } : {}),
    durationMs: result.durationMs,
  };
}

/**
 * "Nothing passed" for people: the conclusion first, then each group of identical failures once, then the same next
 * steps the editor gives (core/verification/noFixAdvice.ts), with the CLI's flags.
 */
export function noFixLines(result: FixResult): string[] {
  const advice = noFixAdvice(result, CLI_NAMES);
  if (!advice) return [];
  const head = result.samples === 0 ? 'No candidate was produced, so nothing was tested.' : `No passing fix found (0 of ${result.samples} passed): ${advice.conclusion}.`;
  const out = [head];
  for (const group of advice.groups.filter((g) => g.numbers.length > 0)) {
    const who = group.numbers.length === 1 ? `#${group.numbers[0]}` : `#${group.numbers.join(', #')}`;
    out.push(`  ${who}:`, ...group.excerpt.slice(0, 5).map((l) => `      ${l}`));
  }
  const duplicates = result.candidates.filter((c) => c.duplicateOf !== null).map((c) => `#${c.index + 1} (same as #${c.duplicateOf! + 1})`);
  if (duplicates.length > 0) out.push(`  not run again, the same as an earlier candidate: ${duplicates.join(', ')}`);
  if (advice.next.length > 0) out.push('', `Next: ${advice.next.join('; ')}.`);
  return out;
}

export function humanReport(result: FixResult, k: number): string {
  const out: string[] = [];
  if (result.baselinePassed) out.push('WARNING: the tests already pass on the unmodified code, so they do not catch the bug: a passing candidate proves little.', '');
  if (result.stoppedEarly) out.push(`Stopped early (${result.stoppedEarly.message}); reporting what finished.`, '');
  // The likeliest fixes when the clock ran out: shown, though not verified, so the user knows where to look.
  for (const c of result.passedFailingTestsOnly ?? []) out.push(`candidate #${c.index + 1}${c.label ? ` — ${c.label}` : ''}: ${FULL_RUN_NOT_REACHED} (not verified)`, c.diff, '');
  // Named so a failure they caused is not read as the candidate's; every candidate still ran the whole suite.
  if (result.flakyTests?.length) out.push(`Flaky tests (passed on the baseline, failed on a re-run of the unmodified code): ${result.flakyTests.join(', ')}. Candidates that failed only on these were re-run on the whole suite.`, '');
  if (result.verified.length > 0) {
    out.push(`${result.verified.length} verified fix${result.verified.length === 1 ? '' : 'es'} (best first):`, '');
    if (result.verified.length > 1) out.push(`${undecidedLine(result.verified.length, result.behaviour)}.`, '');
    if (result.behaviour) out.push(...describeBehaviour(result.behaviour), '');
    for (const index of result.verified) {
      const c = result.candidates[result.candidates.findIndex((x) => x.index === index)];
      out.push(`candidate ${candidateLine(c)}${c.label ? ` — ${c.label}` : ''}`);
      if (c.reviewRequired) out.push(`  REVIEW REQUIRED (not ranked by strength): ${c.reviewRequired}`);
      if (c.strength) out.push(`  ${describeStrength(c.strength)}`);
      else {
        const unchecked = uncheckedBecause(result.strengthCutShort, index);
        if (unchecked) out.push(`  strength: not checked (${unchecked})`);
      }
      out.push(c.diff);
      // The first surviving variants, so a reviewer sees what else the tests would accept.
      for (const survivor of c.strength?.survivors.slice(0, MAX_SURVIVORS_SHOWN) ?? []) out.push(`  also passes: ${survivor.label}`, survivor.diff);
    }
    // What the check cost, so its share of the request is never hidden.
    if (result.strengthCost) out.push('', describeStrengthCost(result.strengthCost, result.durationMs));
  } else {
    out.push(...noFixLines(result));
  }
  const stat = (name: string, values: Readonly<Record<string, number>>) =>
    Object.entries(values).map(([k, v]) => `${name.replace('k', k)} ${(100 * v).toFixed(1)}%`).join(', ');
  // Lost samples are not in n, so the count says so next to it; a statistic with no values is left out, not printed empty.
  const lost = result.lost.length > 0 ? `, ${result.lost.length} lost (not counted in n)` : '';
  const stats = taskPassAtK(result.samples, result.passed, k);
  const summary = [`${result.passed} of ${result.samples} samples passed${lost}`, stat('pass@k', stats.passAtK), stat('pass^k', stats.passHatK)];
  if (result.samples > 0 || result.lost.length > 0) out.push('', summary.filter(Boolean).join('; '));
  if (result.lost.length > 0) out.push(`${result.lost.length} sample(s) could not be obtained: ${[...new Set(result.lost.map((l) => l.message))].join('; ')}`);
  return out.join('\n');
}
