// Jest: `--json --outputFile` writes the report; a selection is exact paths plus one `-t` regex over full names.
import { fullNameSelection } from './ids';
import { parseJestJson } from './jestJson';
import { shellQuote } from './shell';
import type { RunnerAdapter } from './types';

/**
 * Command: `base --json --outputFile=REPORT`; jest keeps its human output on stderr. `only` adds
 * `--runTestsByPath FILES` (exact paths: plain positional arguments would be regexes over paths) and
 * `-t '^(?:full name$|…)'`, where a full name is the describe titles and the test title joined by spaces. Jest
 * compiles `-t` case-insensitively, and the one regex applies to every listed file, so a test of the same full
 * name (in any case) in another listed file runs too; the others are reported as skipped.
 */
export const jestAdapter: RunnerAdapter = {
  name: 'jest',

  command(base, reportPath, only) {
    if (only?.length === 0) return undefined;
    const args = ['--json', `--outputFile=${reportPath}`];
    if (only) {
      const { files, pattern } = fullNameSelection(only);
      args.push('--runTestsByPath', ...files);
      if (pattern !== undefined) args.push('-t', pattern);
    }
    return `${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse: parseJestJson,
};
