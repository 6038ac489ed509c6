// Vitest: its json reporter (jest's format) goes to the report next to the default one; a selection is file filters plus `-t`.
import { fullNameSelection } from './ids';
import { parseJestJson } from './jestJson';
import { shellQuote } from './shell';
import type { RunnerAdapter } from './types';

/**
 * Command: `base --reporter=default --reporter=json --outputFile=REPORT` (base is `vitest run …`: detect.ts adds
 * `run` so that vitest never waits in watch mode). `only` adds the ids' files and `-t '^(?:full name$|…)'`, full
 * names being describe titles and test title joined by spaces. Vitest's file arguments are substring filters, so a
 * file whose path contains a listed one is loaded too; tests the regex does not select are reported as skipped.
 */
export const vitestAdapter: RunnerAdapter = {
  name: 'vitest',

  command(base, reportPath, only) {
    if (only?.length === 0) return undefined;
    const args = ['--reporter=default', '--reporter=json', `--outputFile=${reportPath}`];
    if (only) {
      const { files, pattern } = fullNameSelection(only);
      args.push(...files);
      if (pattern !== undefined) args.push('-t', pattern);
    }
    return `${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse: parseJestJson,
};
