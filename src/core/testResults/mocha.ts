// Mocha: a --require hook writes the report beside any reporter (mochaHook.ts); a selection is files plus one `--grep` regex.
import { fullNameSelection, hookName, joinId } from './ids';
import { boundMessage, parseJson, relativeTo, str } from './reportText';
import { join } from 'node:path';
import { MOCHA_HOOK_FILE, MOCHA_HOOK_SOURCE, MOCHA_REPORT_VARIABLE } from './mochaHook';
import { ASSERT_GUARD_SOURCE } from './assertGuard';
import { shellQuote, shellWords, withRequireHook } from './shell';
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
  const text = str(err.stack) ?? str(err.message);
  const diff = [['expected', str(err.expected)], ['actual', str(err.actual)]].filter(([, value]) => value !== undefined);
  if (!text || diff.length === 0) return boundMessage(text);
  // Right after the message's first line: a long stack would push the values past the bound.
  const [first, ...rest] = text.split('\n');
  return boundMessage([first, ...diff.map(([key, value]) => `${key}: ${value}`), ...rest].join('\n'));
}

/** Mocha's own selection options: with one of them in the user's command, another `--grep` would fight it. */
const OWN_SELECTION = ['--grep', '-g', '--fgrep', '-f', '--invert', '-i'];

/** Whether the user's invocation selects its own tests (then the engine cannot narrow it to some tests). */
export function mochaSelectsOwnTests(base: string): boolean {
  const words = shellWords(base);
  return Array.isArray(words) && words.some(({ value }) => OWN_SELECTION.some((flag) => value === flag || value.startsWith(`${flag}=`)));
}

/**
 * Command: `VERIFIED_FIX_MOCHA_REPORT=REPORT NODE_OPTIONS="--require HOOK …" base`, the user's reporter and options
 * untouched (see MOCHA_HOOK_SOURCE). `only` adds the ids' files (mocha adds them to the spec of .mocharc, it does not
 * replace it) and `--grep '^(?:full title$|…)'`; tests it does not select are left out of the report. undefined for
 * `only` when the user's command has its own `--grep`/`--fgrep`/`--invert`, and when a path holds `"` or `\`, which
 * NODE_OPTIONS cannot quote.
 */
export const mochaAdapter: RunnerAdapter = {
  name: 'mocha',
  // The assertion guard rides in the hook's file: NODE_OPTIONS loads it into every process, ahead of the tests.
  outputFiles: { [MOCHA_HOOK_FILE]: `${ASSERT_GUARD_SOURCE}${MOCHA_HOOK_SOURCE}` },

  command(base, reportPath, only, outputDir = '') {
    const hookPath = join(outputDir, MOCHA_HOOK_FILE);
    if (only?.length === 0) return undefined;
    if (only && mochaSelectsOwnTests(base)) return undefined;
    const args: string[] = [];
    if (only) {
      const { files, pattern } = fullNameSelection(only);
      args.push(...files);
      if (pattern !== undefined) args.push('--grep', pattern);
    }
    const hooked = withRequireHook(base, MOCHA_REPORT_VARIABLE, reportPath, hookPath);
    return hooked === undefined ? undefined : [hooked, ...args.map(shellQuote)].join(' ');
  },

  stopsEarly(report) {
    const data = parseJson(report) as Record<string, unknown> | undefined;
    return data && typeof data === 'object' && data.bail === true ? 'bail' : undefined;
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
