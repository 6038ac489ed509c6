// unittest (`python -m unittest …`): the engine's runner script (unittestRunner.ts) in place of `-m unittest`.
import { join } from 'node:path';
import { unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { shellQuote, shellWords } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';
import { UNITTEST_ONLY_VARIABLE, UNITTEST_REPORT_VARIABLE, UNITTEST_RUNNER_FILE, UNITTEST_RUNNER_SOURCE } from './unittestRunner';

/** The report's lines: a test with several lines (a failed subtest, then the test) keeps its first failure. */
function parseLines(report: string): TestResult[] {
  const tests = new Map<string, { outcome: TestOutcome; message?: string }>();
  for (const line of jsonLines(report)) {
    const id = str(line.id);
    const outcome = str(line.outcome);
    if (!id || (outcome !== 'passed' && outcome !== 'failed' && outcome !== 'skipped')) continue;
    if (tests.get(id)?.outcome === 'failed') continue;
    tests.set(id, outcome === 'failed' ? { outcome, message: boundMessage(str(line.message)) } : { outcome });
  }
  return [...tests].map(([id, { outcome, message }]) => (message ? { id, outcome, message } : { id, outcome }));
}

/**
 * Command: `VERIFIED_FIX_UNITTEST_REPORT=REPORT [VERIFIED_FIX_UNITTEST_ONLY=IDS] python … SCRIPT ARGS` for `base`
 * `python … -m unittest ARGS`: the user's arguments, options and interpreter stay. `only` loads the tests as the
 * arguments say and keeps those ids (and the tests inside a listed file or class), so every test module is still
 * imported: stage 1 costs the imports of the whole suite but runs only the selected tests.
 */
export const unittestAdapter: RunnerAdapter = {
  name: 'unittest',
  outputFiles: { [UNITTEST_RUNNER_FILE]: UNITTEST_RUNNER_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    const words = shellWords(base);
    if (only?.length === 0 || !Array.isArray(words)) return undefined;
    const at = words.findIndex((word, i) => word.value === '-m' && words[i + 1]?.value === 'unittest');
    if (at < 0) return undefined;
    const raw = words.map((word) => word.raw);
    raw.splice(at, 2, shellQuote(join(outputDir, UNITTEST_RUNNER_FILE)));
    const variables = [`${UNITTEST_REPORT_VARIABLE}=${shellQuote(reportPath)}`, ...(only ? [`${UNITTEST_ONLY_VARIABLE}=${shellQuote(JSON.stringify(unique(only)))}`] : [])];
    return [...variables, ...raw].join(' ');
  },

  parse: parseLines,
};
