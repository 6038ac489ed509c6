// The one failure excerpt every front end and the repair rounds show: the failing tests and their messages, never passing-test lines.
import { stripAnsi } from '../base/ansi';
import { parseJson, str } from './reportText';

/** A failing test as a verdict keeps it (Verdict.failures). */
export interface FailedTest {
  readonly id: string;
  readonly message?: string;
}

/** What an excerpt is made from: a run's output and, with per-test results, its failing tests. */
export interface ExcerptSource {
  readonly output: string;
  readonly failures?: readonly FailedTest[];
}

const LINE_CHARS = 200;
const TESTS_SHOWN = 3;

/**
 * Where each runner's own account of its failures starts: mocha's "N failing", pytest's FAILURES/ERRORS banner,
 * jest's "●" blocks, node --test's "✖ failing tests:", go's "--- FAIL", cargo's "failures:", TAP's "not ok".
 * Tried in this order; the first that matches a line wins.
 */
const SECTION_STARTS: readonly RegExp[] = [
  /^\s*\d+ failing\b/,
  /^=+ (?:FAILURES|ERRORS) =+$/,
  /^\s*● (?!Console\b)/,
  /^\s*✖ failing tests:/,
  /^\s*--- FAIL\b/,
  /^failures:$/,
  /^\s*not ok \d/,
];

/** Failing lines in output no section start matched: the excerpt starts at the first. */
const FAILURE_LINE = /✖|✗|×|\bfail(?:ed|ure|s)?\b|error|assert|expect|traceback|panic|not ok/i;
/** A stack frame: the first outside the runner says where; the rest would push the values out of the excerpt. */
const FRAME = /^\s*(?:at |File ")/;

/** Lines that report a pass (or a progress row of dots): never part of a failure. */
const PASSING = /^\s*(?:✓|✔|√|ok \d|PASS\b|PASSED\b|\d+ passing\b|[.․,!]+$|--- PASS\b|test .* \.\.\. ok$)|\bPASSED\b/;
/** Stack frames inside the runner or Node: they say nothing about the code under test. */
const RUNNER_FRAME = /^\s*at .*(?:\(node:|\bnode:internal\/|[\\/]node_modules[\\/])|^\s*at (?:new )?Promise\b|^\s*at process\.processTicksAndRejections/;

const cut = (line: string) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);

/** The lines worth showing from `lines`: no blanks, passes, runner frames or trailing spaces. */
function clean(lines: readonly string[]): string[] {
  let frames = 0;
  return lines
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !PASSING.test(line) && !RUNNER_FRAME.test(line) && (!FRAME.test(line) || frames++ === 0));
}

/**
 * From the failing tests' own messages: each test's id, then its message's first lines. The first test gets the
 * lines the others' names leave over (its expected and actual values matter more than a third test's message).
 */
function fromFailures(failures: readonly FailedTest[], maxLines: number): string[] {
  const shown = failures.slice(0, TESTS_SHOWN);
  const more = failures.length > shown.length ? [`… and ${failures.length - shown.length} more failing`] : [];
  const messageLines = (message?: string) => clean(stripAnsi(message ?? '').split(/\r?\n/)).map((line) => `  ${line.trim()}`);
  const rest = shown.slice(1).map(({ id }) => `✗ ${id}`);
  const firstRoom = Math.max(1, maxLines - 1 - rest.length - more.length);
  const out = [`✗ ${shown[0].id}`, ...messageLines(shown[0].message).slice(0, firstRoom)];
  for (const test of shown.slice(1)) {
    out.push(`✗ ${test.id}`);
    // A later test's first message line, where the budget still has room for it and the names after it.
    const left = maxLines - out.length - (shown.length - 1 - shown.indexOf(test)) - more.length;
    if (left > 0) out.push(...messageLines(test.message).slice(0, 1));
  }
  return [...out, ...more];
}

/** The runner's failure section, from its first line; undefined when the output has none this knows. */
function section(lines: readonly string[]): string[] | undefined {
  for (const start of [...SECTION_STARTS, FAILURE_LINE]) {
    const at = lines.findIndex((line) => start.test(line) && !PASSING.test(line));
    if (at >= 0) return clean(lines.slice(at));
  }
  return undefined;
}

/** A json reporter's report printed on stdout (mocha `--reporter json`): its failures, else undefined. */
function printedReport(output: string): FailedTest[] | undefined {
  const text = output.trim();
  if (!text.startsWith('{')) return undefined;
  const data = parseJson(text.slice(0, text.lastIndexOf('}') + 1)) as { failures?: unknown } | undefined;
  if (!data || !Array.isArray(data.failures)) return undefined;
  return (data.failures as Array<Record<string, unknown>>).map((test) => {
    const err = (test?.err ?? {}) as Record<string, unknown>;
    return { id: str(test?.fullTitle) ?? str(test?.title) ?? '(unnamed test)', message: str(err.message) ?? str(err.stack) ?? '' };
  });
}

/**
 * The lines that show a run's failure: the failing tests' names and messages from the per-test report when the
 * run had one (with messages), else the runner's failure section of the output, else the output from its first
 * line that looks like a failure, else its last lines; colours
 * stripped, passing-test lines and runner-internal stack frames left out, at most `maxLines` of at most 200 characters.
 */
export function failureExcerpt(source: ExcerptSource, maxLines = 8): string[] {
  const failures = source.failures?.length ? source.failures : (printedReport(source.output) ?? []);
  if (failures.some((test) => test.message)) return fromFailures(failures, maxLines).slice(0, maxLines).map(cut);
  const lines = stripAnsi(source.output).split(/\r?\n/);
  const picked = section(lines) ?? clean(lines).slice(-maxLines);
  const named = failures.length > 0 ? failures.slice(0, TESTS_SHOWN).map(({ id }) => `✗ ${id}`) : [];
  return [...named, ...picked].slice(0, maxLines).map(cut);
}

/** A line that names what went wrong: a runner's failure heading, an error, a traceback's last line. */
const ERROR_LINE = /^\s*(?:● (?!Console\b)|[\w.]*(?:Error|Exception)\b:?|error:|Traceback\b|E {2,}\S|FATAL\b|fatal:)/;

/**
 * The last line of `output` that says what went wrong ("● process.exit called with "1"", "ModuleNotFoundError: No
 * module named 'x'"), colours stripped and cut to 200 characters; undefined when no line does. Where a run ended
 * without the report it was to write, the end of its output says why, not its first failing test.
 */
export function lastErrorLine(output: string): string | undefined {
  const line = stripAnsi(output).split(/\r?\n/).reverse().find((l) => ERROR_LINE.test(l) && !FRAME.test(l));
  return line === undefined ? undefined : cut(line.trim());
}

