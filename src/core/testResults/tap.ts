// node-tap: its raw TAP goes to the report (`--output-file`) beside its own reporter; one result per test file, selected by file.
import { unique } from './ids';
import { boundMessage } from './reportText';
import { shellQuote, withFileArguments } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';

/** node-tap's options that take their value as the next word: that word is not a test file. */
const VALUE_OPTIONS = ['-R', '--reporter', '-j', '--jobs', '-t', '--timeout', '-o', '--output-file', '-d', '--output-dir', '-g', '--grep', '--node-arg', '--nyc-arg', '--test-arg', '--test-env', '--test-regex', '--test-ignore', '--before', '--after', '--rcfile', '--libtap-settings'];

/** `base` with its file and glob arguments replaced by `files`; undefined when base is not a plain tap command. */
function withFiles(base: string, files: readonly string[]): string | undefined {
  return withFileArguments(base, /(?:^|\/)tap$/, VALUE_OPTIONS, files);
}

const POINT = /^(not )?ok\b\s*\d*\s*(?:- )?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*?)?(?:\s+# time=[\d.]+m?s)?$/i;

/**
 * The top-level test points of a TAP stream: with node-tap each is one test file (`ok 1 - test/a.test.js`), its
 * tests nested inside as subtests. Per file because the printed TAP, the second witness, counts its top-level
 * points too. A failing file's message: the first failing nested point and the YAML lines under it.
 */
export function parseTopLevelTap(report: string): TestResult[] {
  const results: TestResult[] = [];
  const lines = report.split(/\r?\n/);
  let firstFailure: string[] | undefined;
  let collecting = false;
  let skipping = false;
  for (const line of lines) {
    const top = POINT.exec(line);
    if (top && !/^\s/.test(line)) {
      const outcome: TestOutcome = top[3] ? 'skipped' : top[1] ? 'failed' : 'passed';
      const message = outcome === 'failed' && firstFailure ? boundMessage(firstFailure.join('\n')) : undefined;
      if (top[2]) results.push(message ? { id: top[2], outcome, message } : { id: top[2], outcome });
      firstFailure = undefined;
      collecting = false;
      continue;
    }
    const nested = /^\s+(not ok\b.*)$/.exec(line);
    if (nested && !firstFailure && !/#\s*TODO\b/i.test(nested[1])) {
      firstFailure = [nested[1].replace(/^not ok\s*\d*\s*(?:- )?/, '')];
      collecting = true;
      skipping = false;
      continue;
    }
    if (collecting && firstFailure) {
      const text = line.trim();
      // The YAML's source excerpt and position say less than its diff, and would push it past the bound; tap 18+'s
      // `compare: ===` names the operator, which the diff under it shows anyway.
      if (/^(?:source|at|stack|compare):/.test(text)) skipping = true;
      else if (/^[a-z]+:/.test(text) && !/^(?:line|column|file|type):/.test(text)) skipping = false;
      if (/^\s+\.\.\.$/.test(line) || /^\s+(?:not )?ok\b/.test(line)) collecting = false;
      else if (text !== '---' && text !== '' && !skipping) firstFailure.push(text);
    }
  }
  return results;
}

/**
 * Command: `base --output-file=REPORT` (node-tap, checked on 16: the raw TAP to a file, the user's reporter on stdout
 * unchanged). `only` (ids are test files) runs those files in place of the command's own. Coverage (nyc) stays as
 * the user set it.
 */
export const tapAdapter: RunnerAdapter = {
  name: 'tap',

  command(base, reportPath, only) {
    if (only?.length === 0) return undefined;
    const selected = only ? withFiles(base, unique(only)) : base;
    return selected === undefined ? undefined : `${selected} ${shellQuote(`--output-file=${reportPath}`)}`;
  },

  parse: parseTopLevelTap,
};
