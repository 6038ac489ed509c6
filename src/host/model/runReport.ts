// The report behind "No passing fix found … Details": a conclusion, the candidates grouped by identical failure, next steps.
import type { CandidateResult, FixResult } from '../../core/contract/fixRequest';
import { failureExcerpt } from '../../core/testResults/failureExcerpt';
import { EDITOR_NAMES, groupVerb, noFixAdvice } from '../../core/verification/noFixAdvice';
import { FULL_RUN_NOT_REACHED, verifiedOn } from '../../core/verification/evidence';
import { describeStrength, uncheckedBecause } from '../../core/verification/strengthCheck';
import { describeStrengthCost } from '../../core/verification/strengthBudget';

export { failureExcerpt };

function runsText(c: CandidateResult): string {
  if (c.runs.length <= 1) return '';
  const passes = c.runs.filter((r) => r.status === 'pass').length;
  const what = c.confirmedOn ? `fixed tests passed ${passes}/${c.runs.length} runs` : `${passes}/${c.runs.length} runs passed`;
  return `, ${what}${c.flaky ? ' (flaky)' : ''}`;
}

/** What the strength check said of a verified candidate, in the CLI's words; empty when it did not run on it. */
function strengthLines(c: CandidateResult, cutShort: FixResult['strengthCutShort']): string[] {
  if (!c.verified) return [];
  if (c.strength) return [`Strength: ${describeStrength(c.strength)}.`, ''];
  const unchecked = uncheckedBecause(cutShort, c.index);
  if (unchecked) return [`Strength: not checked (${unchecked}).`, ''];
  return [];
}

/** Candidates a stop left after their failing tests passed: not verified, the likeliest fixes to look at. */
function unfinishedLines(result: FixResult): string[] {
  return (result.passedFailingTestsOnly ?? []).flatMap((c) => [
    `## Candidate ${c.index + 1}${c.label ? ` — ${c.label}` : ''}: ${FULL_RUN_NOT_REACHED} (not verified)`, '',
    '```text', ...c.diff.split('\n').filter((l) => /^[-+@]/.test(l) && !/^(---|\+\+\+) /.test(l)).slice(0, 12), '```', '',
  ]);
}

/** One candidate: its verdict and change; its failure too unless the groups above already quote it. */
function candidateSection(c: CandidateResult, withFailure: boolean, cutShort?: FixResult['strengthCutShort']): string[] {
  const status = `${c.verified ? (c.reachingTests ? verifiedOn(c.reachingTests) : 'verified') : c.verdict.status}${c.verdict.reason ? `: ${c.verdict.reason}` : ''}`;
  const head = `${withFailure ? '##' : '###'} Candidate ${c.index + 1}${c.label ? ` — ${c.label}` : ''}: ${status}${runsText(c)}, ${(c.verdict.durationMs / 1000).toFixed(1)} s`;
  if (c.duplicateOf !== null) return [head, '', `Same as candidate ${c.duplicateOf + 1} (whitespace aside), so it was not run again.`, ''];
  const out = [head, '', ...strengthLines(c, cutShort)];
  // A plain block, not ```diff: the preview's diff colours put light green on pale green in light themes.
  if (c.diff) out.push('```text', ...c.diff.split('\n').filter((l) => /^[-+@]/.test(l) && !/^(---|\+\+\+) /.test(l)).slice(0, 12), '```', '');
  if (c.verdict.status !== 'pass' && withFailure) {
    const excerpt = failureExcerpt(c.verdict);
    if (excerpt.length > 0) out.push('```text', ...excerpt, '```', '');
  }
  return out;
}

/** A Markdown report of the whole request, for a read-only document. */
export function formatRunReport(result: FixResult, location: string): string {
  const out = [
    `# Verified Fix: ${location}`,
    '',
    `Test command: \`${result.testCommand}\`. ${result.passed} of ${result.samples} samples passed on the first run; ${result.verified.length} verified.`,
  ];
  if (result.baseline) {
    out.push(`Baseline (the unmodified code): ${result.baseline.status}${result.baseline.reason ? `: ${result.baseline.reason}` : ''}.`);
    if (result.baselinePassed) out.push('The tests already pass on the unmodified code, so they do not catch this bug and a passing candidate proves little.');
  }
  if (result.stoppedEarly) out.push(`The request stopped early: ${result.stoppedEarly.message}.`);
  if (result.lost.length > 0) out.push(`${result.lost.length} sample(s) could not be obtained: ${[...new Set(result.lost.map((l) => l.message))].join('; ')}.`);
  if (result.strengthCost) out.push(`S${describeStrengthCost(result.strengthCost, result.durationMs).slice(1)}.`);
  if (result.strengthCutShort) out.push(`The strength check was cut short: ${result.strengthCutShort.message}.`);
  out.push('', ...unfinishedLines(result));
  const advice = noFixAdvice(result, EDITOR_NAMES);
  if (advice && result.candidates.length > 0) {
    // Nothing passed: the conclusion first, each failure once with the candidates that share it, then what to do.
    out.push(`**${advice.conclusion[0].toUpperCase()}${advice.conclusion.slice(1)}.**`, '');
    if (advice.next.length > 0) out.push(`Next: ${advice.next.join('; ')}.`, '');
    for (const group of advice.groups.filter((g) => g.numbers.length > 0)) {
      const who = group.numbers.length === 1 ? `Candidate ${group.numbers[0]}` : `Candidates ${group.numbers.join(', ')}`;
      out.push(`## ${who}: ${groupVerb(group)}`, '');
      if (group.excerpt.length > 0) out.push('```text', ...group.excerpt, '```', '');
    }
    out.push('## Each candidate', '');
    for (const c of result.candidates) out.push(...candidateSection(c, false));
  } else {
    for (const c of result.candidates) out.push(...candidateSection(c, true, result.strengthCutShort));
  }
  if (result.candidates.length === 0) out.push('No candidates were produced.');
  return `${out.join('\n')}\n`;
}
