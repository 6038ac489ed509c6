// Mocha: the json reporter writes the report (`--reporter-option output=`); a selection is files plus one `--grep` regex.
import { fullNameSelection, hookName, joinId } from './ids';
import { boundMessage, parseJson, relativeTo, str } from './reportText';
import { shellQuote } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';

/**
 * Mocha's JSON gives a test's title and its full title (suite titles and title joined by spaces), not the suites
 * one by one; so the id is `file > suite titles joined by spaces > title`, the same as the other runners' ids when
 * there is one describe level. A failing hook becomes `file > suite > "before all" hook`.
 */
function idOf(test: Record<string, unknown>, cwd: string): string | undefined {
  const title = str(test.title);
  if (title === undefined) return undefined;
  const fullTitle = str(test.fullTitle) ?? title;
  const suites = fullTitle.length > title.length && fullTitle.endsWith(title) ? fullTitle.slice(0, -title.length - 1) : '';
  const file = str(test.file);
  return joinId(file ? relativeTo(cwd, file) : '', [suites, hookName(title) ?? title]);
}

function messageOf(test: Record<string, unknown>): string | undefined {
  const err = test.err && typeof test.err === 'object' ? (test.err as Record<string, unknown>) : {};
  return boundMessage(str(err.stack) ?? str(err.message));
}

/**
 * Command: `base --reporter=json --reporter-option=output=REPORT`; mocha has one reporter, so stdout stays empty.
 * `only` adds the ids' files (mocha adds them to the spec of .mocharc, it does not replace it) and
 * `--grep '^(?:full title$|…)'`; tests it does not select are left out of the report. undefined when REPORT holds
 * `,` or `=`, which mocha's option parser splits on.
 */
export const mochaAdapter: RunnerAdapter = {
  name: 'mocha',

  command(base, reportPath, only) {
    if (only?.length === 0 || /[,=]/.test(reportPath)) return undefined;
    const args = ['--reporter=json', `--reporter-option=output=${reportPath}`];
    if (only) {
      const { files, pattern } = fullNameSelection(only);
      args.push(...files);
      if (pattern !== undefined) args.push('--grep', pattern);
    }
    return `${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse(report, cwd) {
    const data = parseJson(report) as Record<string, unknown> | undefined;
    if (!data || typeof data !== 'object') return [];
    const results: TestResult[] = [];
    const lists: Array<[key: string, outcome: TestOutcome]> = [
      ['passes', 'passed'],
      ['failures', 'failed'],
      ['pending', 'skipped'],
    ];
    for (const [key, outcome] of lists) {
      const list = data[key];
      if (!Array.isArray(list)) continue;
      for (const test of list as Array<Record<string, unknown>>) {
        const id = test && typeof test === 'object' ? idOf(test, cwd) : undefined;
        if (!id) continue;
        const message = outcome === 'failed' ? messageOf(test) : undefined;
        results.push(message ? { id, outcome, message } : { id, outcome });
      }
    }
    return results;
  },
};
