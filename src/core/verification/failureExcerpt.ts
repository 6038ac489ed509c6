// The lines of a failed run's output that say what failed, across test runners (the Details report and the CLI quote them).
import type { Verdict } from '../contract/fixRequest';

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
export function failureExcerpt(verdict: Pick<Verdict, 'output'>, count = LINES_PER_CANDIDATE): string[] {
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
