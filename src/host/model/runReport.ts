// The per-candidate report behind "No passing fix found … Details": each verdict and the first lines of its failure.
import type { CandidateResult, FixResult, Verdict } from '../../core/contract/fixRequest';

/** Lines that usually say what failed, across test runners (node --test, mocha, jest, pytest, go test). */
const failurePattern = /\b(not ok|fail(ed|ure)?|error|assert|expected|exception|traceback|panic)\b|✖|✗|×/i;
/** Stack frames say where, not what: left out so the expected and actual lines fit. */
const stackFrame = /^\s*(at |File "|\S+\.(js|ts|py|go|rs):\d+)/;
/** A test that passed ends the failure before it. */
const passLine = /^\s*(ok \d|✔|✓|PASS\b|PASSED\b)/;
const LINES_PER_CANDIDATE = 8;

/**
 * The failure as a reader needs it: from the first line that looks like one, the lines that follow it (an assertion's
 * expected and actual values rarely match any pattern), stack frames left out; else the last lines of the output.
 */
export function failureExcerpt(verdict: Verdict, count = LINES_PER_CANDIDATE): string[] {
  const lines = verdict.output.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim());
  const first = lines.findIndex((l) => failurePattern.test(l));
  let picked = lines.slice(-count);
  if (first >= 0) {
    const after = lines.slice(first);
    const end = after.findIndex((l, i) => i > 0 && passLine.test(l));
    picked = (end > 0 ? after.slice(0, end) : after).filter((l) => !stackFrame.test(l)).slice(0, count);
  }
  return picked.map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l));
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
