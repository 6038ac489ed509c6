// The per-candidate report behind "No passing fix found … Details": each verdict and the first lines of its failure.
import type { CandidateResult, FixResult, Verdict } from '../../core/contract/fixRequest';
import { failureExcerpt as sharedExcerpt } from '../../core/testResults/failureExcerpt';

const LINES_PER_CANDIDATE = 8;

/** The failure as a reader needs it (the shared excerpt: failing tests and messages, never passing lines). */
export function failureExcerpt(verdict: Verdict, count = LINES_PER_CANDIDATE): string[] {
  return sharedExcerpt(verdict, count);
}

function runsText(c: CandidateResult): string {
  if (c.runs.length <= 1) return '';
  const passes = c.runs.filter((r) => r.status === 'pass').length;
  return `, ${passes}/${c.runs.length} runs passed${c.flaky ? ' (flaky)' : ''}`;
}

function candidateSection(c: CandidateResult): string[] {
  const status = `${c.verified ? 'verified' : c.verdict.status}${c.verdict.reason ? `: ${c.verdict.reason}` : ''}`;
  const head = `## Candidate ${c.index + 1}${c.label ? ` — ${c.label}` : ''}: ${status}${runsText(c)}, ${(c.verdict.durationMs / 1000).toFixed(1)} s`;
  if (c.duplicateOf !== null) return [head, '', `Same as candidate ${c.duplicateOf + 1} (whitespace aside), so it was not run again.`, ''];
  const out = [head, ''];
  if (c.diff) out.push('```diff', ...c.diff.split('\n').filter((l) => /^[-+@]/.test(l) && !/^(---|\+\+\+) /.test(l)).slice(0, 12), '```', '');
  if (c.verdict.status !== 'pass') {
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
  out.push('');
  for (const c of result.candidates) out.push(...candidateSection(c));
  if (result.candidates.length === 0) out.push('No candidates were produced.');
  return `${out.join('\n')}\n`;
}
