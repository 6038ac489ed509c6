// Reads the closing summary a test runner prints, so a "pass" that ran no tests, or fewer than the baseline, can be told apart.
import { stripAnsi } from '../base/ansi';

/** What a run's output says about its tests. */
export interface TestSummary {
  readonly runner: 'node' | 'jest' | 'vitest' | 'mocha' | 'pytest' | 'unittest' | 'go' | 'cargo' | 'tap' | 'generic';
  readonly passed: number;
  readonly failed: number;
  /** Tests that did not run to a verdict: skipped, todo, xfail, pending, ignored. */
  readonly skipped: number;
}

type Runner = TestSummary['runner'];
type Counts = Omit<TestSummary, 'runner'>;
type Reader = (lines: readonly string[]) => Counts | undefined;

const none: Counts = { passed: 0, failed: 0, skipped: 0 };
const add = (a: Counts, b: Counts): Counts => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped });

/** Tests that actually ran: passed + failed. */
export function testsRun(summary: TestSummary): number {
  return summary.passed + summary.failed;
}

/** Plain lines: no colour, and only what a terminal would finally show of a line rewritten with `\r`. */
function plainLines(output: string): string[] {
  // Runners colour their output despite NO_COLOR.
  return stripAnsi(output)
    .split('\n')
    .map((line) => {
      const text = line.replace(/\r+$/, '');
      return text.slice(text.lastIndexOf('\r') + 1).trimEnd();
    });
}

/** `"1 failed, 4 passed"` split on `separator` into word → count, or undefined when any item is not "N word(s)". */
function tally(list: string, separator: string): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  for (const item of list.split(separator)) {
    const m = /^(\d+) ([a-z][a-z ]*)$/.exec(item.trim());
    if (!m) return undefined;
    counts.set(m[2], (counts.get(m[2]) ?? 0) + Number(m[1]));
  }
  return counts;
}

const sum = (counts: ReadonlyMap<string, number>, ...words: string[]) => words.reduce((n, w) => n + (counts.get(w) ?? 0), 0);

/** The last line matching `pattern`, searching backwards: a nested run's output (a test that runs a runner) comes first. */
function lastMatch(lines: readonly string[], pattern: RegExp): { match: RegExpExecArray; index: number } | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const match = pattern.exec(lines[index]);
    if (match) return { match, index };
  }
  return undefined;
}

/** The next `limit` non-blank lines after `index`. */
const following = (lines: readonly string[], index: number, limit: number) =>
  lines.slice(index + 1).filter((l) => l.trim()).slice(0, limit);

// node --test: `ℹ tests 5` (spec reporter) or `# tests 5` (TAP, the default when stdout is not a TTY), then one field a line.
// A cancelled test started and did not finish (timeout, its file died), so it counts as failed.
const node: Reader = (lines) => {
  const head = lastMatch(lines, /^(ℹ|#) tests (\d+)$/);
  if (!head) return undefined;
  const fields = new Map<string, number>();
  for (const line of lines.slice(head.index + 1, head.index + 9)) {
    const m = /^(ℹ|#) (\w+) ([\d.]+)$/.exec(line);
    if (!m || m[1] !== head.match[1]) break;
    fields.set(m[2], Number(m[3]));
  }
  // tape prints `# tests`/`# pass` too; only node adds `cancelled` and `duration_ms` to a `#` block.
  const isNode = head.match[1] === 'ℹ' || fields.has('cancelled') || fields.has('duration_ms');
  if (!isNode || !fields.has('pass') || !fields.has('fail')) return undefined;
  return { passed: sum(fields, 'pass'), failed: sum(fields, 'fail', 'cancelled'), skipped: sum(fields, 'skipped', 'todo') };
};

// Jest, on stderr: `Tests:       1 failed, 1 skipped, 4 passed, 6 total` (`Tests:       0 total` when a suite failed to load).
const jest: Reader = (lines) => {
  const found = lastMatch(lines, /^Tests:\s+(.+)$/);
  const counts = found && tally(found.match[1], ', ');
  if (!counts?.has('total')) return undefined;
  return { passed: sum(counts, 'passed'), failed: sum(counts, 'failed'), skipped: sum(counts, 'skipped', 'todo', 'pending') };
};

// Vitest: `      Tests  1 failed | 4 passed | 1 skipped (6)`, or `Tests  no tests` when every file failed to load.
const vitest: Reader = (lines) => {
  const found = lastMatch(lines, /^\s*Tests {2}(no tests|(.+?) \(\d+\))$/);
  if (!found) return undefined;
  if (found.match[1] === 'no tests') return none;
  const counts = tally(found.match[2], ' | ');
  if (!counts) return undefined;
  return { passed: sum(counts, 'passed'), failed: sum(counts, 'failed'), skipped: sum(counts, 'skipped', 'todo') };
};

// Mocha's epilogue: `  4 passing (9ms)`, then `  2 pending` and `  1 failing` only when non-zero.
const mocha: Reader = (lines) => {
  const found = lastMatch(lines, /^\s*(\d+) passing \(\d+(?:ms|s|m|h)\)$/);
  if (!found) return undefined;
  const counts = new Map<string, number>();
  for (const line of following(lines, found.index, 2)) {
    const m = /^\s*(\d+) (pending|failing)$/.exec(line);
    if (m) counts.set(m[2], Number(m[1]));
  }
  return { passed: Number(found.match[1]), failed: sum(counts, 'failing'), skipped: sum(counts, 'pending') };
};

// pytest: `=== 1 failed, 4 passed, 1 skipped, 1 error in 0.12s ===` (no `=` with -q), or `no tests ran in 0.01s`.
// Errors (collection, fixtures) count as failed; xpassed ran and passed; deselected tests were never meant to run.
const PYTEST_WORDS = ['passed', 'failed', 'skipped', 'deselected', 'xfailed', 'xpassed', 'error', 'errors', 'warning', 'warnings', 'rerun'];
const pytest: Reader = (lines) => {
  const found = lastMatch(lines, /^(?:=+ )?(.+?) in \d+(?:\.\d+)?s(?: \([\d:.]+\))?(?: =+)?$/);
  if (!found) return undefined;
  if (found.match[1] === 'no tests ran') return none;
  const counts = tally(found.match[1], ', ');
  if (!counts || ![...counts.keys()].every((w) => PYTEST_WORDS.includes(w))) return undefined;
  return { passed: sum(counts, 'passed', 'xpassed'), failed: sum(counts, 'failed', 'error', 'errors'), skipped: sum(counts, 'skipped', 'xfailed') };
};

// unittest: `Ran 8 tests in 0.001s`, then `OK`, `OK (skipped=1)`, `FAILED (failures=1, errors=1, skipped=2)`, or
// `NO TESTS RAN` (Python 3.12+). "Ran" includes skips and expected failures; an unexpected success fails the run.
const unittest: Reader = (lines) => {
  const found = lastMatch(lines, /^Ran (\d+) tests? in [\d.]+s$/);
  if (!found) return undefined;
  const status = following(lines, found.index, 1).map((l) => /^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$/.exec(l))[0];
  if (!status) return undefined;
  const counts = new Map<string, number>();
  for (const part of status[2]?.split(', ') ?? []) {
    const [key, value] = part.split('=');
    counts.set(key, Number(value));
  }
  const failed = sum(counts, 'failures', 'errors', 'unexpected successes');
  const skipped = sum(counts, 'skipped', 'expected failures');
  // setUpClass errors are counted as errors but not in "Ran", so the difference can go below zero.
  return { passed: Math.max(0, Number(found.match[1]) - failed - skipped), failed, skipped };
};

// go test prints one `ok  \tpkg\t0.01s` or `FAIL\tpkg\t0.01s` line per package; per-test lines only with -v.
// With -v (any `=== RUN`), the top-level `--- PASS/FAIL/SKIP` lines are counted (subtests roll up into their parent),
// so a package whose binary exits 0 in init() (it prints a bare `ok` line even with -v) counts 0. Without -v,
// each package counts as one test: ok → passed, FAIL → failed. That is coarse but the same for baseline and candidate,
// whereas counting the `--- FAIL` lines go prints for failures only would make a fixed package look like fewer tests.
const GO_PACKAGE = /^(ok|FAIL) *\t\S+\t(.*)$/;
const go: Reader = (lines) => {
  const packages = lines.map((l) => GO_PACKAGE.exec(l)).filter((m) => m !== null);
  if (packages.length === 0) return undefined;
  if (lines.some((l) => l.startsWith('=== RUN '))) {
    const count = (verdict: string) => lines.filter((l) => l.startsWith(`--- ${verdict}: `)).length;
    return { passed: count('PASS'), failed: count('FAIL'), skipped: count('SKIP') };
  }
  return packages
    .filter(([, , rest]) => !rest.includes('[no tests to run]'))
    .reduce((total, [, verdict]) => add(total, verdict === 'ok' ? { ...none, passed: 1 } : { ...none, failed: 1 }), none);
};

// cargo test: one `test result:` line per test binary (unit, each integration file, doc-tests), all added up.
const cargo: Reader = (lines) => {
  const results = lines.map((l) => /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(l)).filter((m) => m !== null);
  if (results.length === 0) return undefined;
  return results.reduce((total, m) => add(total, { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) }), none);
};

// Plain TAP. tape closes with `# tests 3`, `# pass  2`, `# fail  1`; a producer without those comments (Perl's
// Test::More) is counted from its top-level `ok`/`not ok` lines, and only when a `1..N` plan shows the stream is TAP.
// A `# SKIP`/`# TODO` directive makes the point skipped (a failing TODO is not a failure in TAP).
const tap: Reader = (lines) => {
  const head = lastMatch(lines, /^# tests\s+\d+$/);
  if (head) {
    const fields = new Map<string, number>();
    for (const line of following(lines, head.index, 4)) {
      const m = /^# (pass|fail|skip|todo)\s+(\d+)$/.exec(line);
      if (m) fields.set(m[1], Number(m[2]));
    }
    if (fields.has('pass') || fields.has('fail')) {
      return { passed: sum(fields, 'pass'), failed: sum(fields, 'fail'), skipped: sum(fields, 'skip', 'todo') };
    }
  }
  if (!lines.some((l) => /^1\.\.\d+\b/.test(l))) return undefined;
  // `(?! *\t)` leaves out go's `ok  \tpkg` package lines.
  const points = lines.map((l) => /^(not )?ok\b(?! *\t)(.*)$/.exec(l)).filter((m) => m !== null);
  const directive = (rest: string) => /#\s*(skip|todo)\b/i.test(rest);
  return {
    passed: points.filter(([, not, rest]) => !not && !directive(rest)).length,
    failed: points.filter(([, not, rest]) => not && !directive(rest)).length,
    skipped: points.filter(([, , rest]) => directive(rest)).length,
  };
};

// The plain closing line any hand-rolled test script can print: `N passed, N failed` (`, N skipped` optional),
// alone on its line, optionally after one word and a colon (`Results: 2 passed, 1 failed`).
const generic: Reader = (lines) => {
  const found = lastMatch(lines, /^\s*(?:[A-Za-z]+:\s*)?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/);
  if (!found) return undefined;
  return { passed: Number(found.match[1]), failed: Number(found.match[2]), skipped: Number(found.match[3] ?? 0) };
};

// Each runner's own closing line is distinctive, so all are read and a monorepo's several runners add up. TAP is
// only read when node's summary is absent (node's TAP reporter is itself TAP), and the generic line only as a last resort.
const SPECIFIC: ReadonlyArray<readonly [Runner, Reader]> = [
  ['node', node],
  ['jest', jest],
  ['vitest', vitest],
  ['mocha', mocha],
  ['pytest', pytest],
  ['unittest', unittest],
  ['go', go],
  ['cargo', cargo],
];

/**
 * The test summary in a run's output, or undefined when none is recognisable. When several summaries are printed
 * (cargo prints one per test binary, go one `ok` line per package, a monorepo runs several runners) their counts
 * are added. When one runner prints its summary twice, the last counts. `runner` names the runner that ran the most
 * tests. The output may carry ANSI colours, `\r` rewrites, npm's preamble and a `[… N earlier bytes dropped …]` head.
 */
export function parseTestSummary(output: string): TestSummary | undefined {
  const lines = plainLines(output);
  const found: Array<readonly [Runner, Counts]> = [];
  const read = (runner: Runner, reader: Reader) => {
    const counts = reader(lines);
    if (counts) found.push([runner, counts]);
  };
  for (const [runner, reader] of SPECIFIC) read(runner, reader);
  if (!found.some(([runner]) => runner === 'node')) read('tap', tap);
  if (found.length === 0) read('generic', generic);
  if (found.length === 0) return undefined;
  const [runner] = found.reduce((best, next) => (next[1].passed + next[1].failed > best[1].passed + best[1].failed ? next : best));
  return { runner, ...found.reduce((total, [, counts]) => add(total, counts), none) };
}
