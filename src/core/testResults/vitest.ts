// Vitest: its json reporter (jest's format) goes to the report beside the user's reporters; a selection is file filters plus `-t`.
import { join } from 'node:path';
import { fullNameSelection } from './ids';
import { parseJestJson } from './jestJson';
import { shellQuote, shellWords } from './shell';
import type { RunnerAdapter } from './types';
import { VITEST_CONFIG_FILE, VITEST_CONFIG_SOURCE, VITEST_REPORT_VARIABLE, VITEST_USER_CONFIG_VARIABLE } from './vitestConfig';

/**
 * `only` as vitest arguments: the ids' files and `-t '^(?:full name$|…)'`, full names being describe titles and
 * test title joined by spaces. Vitest's file arguments are substring filters, so a file whose path contains a
 * listed one is loaded too; tests the regex does not select are reported as skipped. Vitest 1.x (checked on 1.6.1)
 * matches `-t` against ` outer inner test`: the file's unnamed top-level suite adds an empty title and its joining
 * space (2.1 and 3.2 leave it out), so the regex allows one leading space; anchored without it, it selects nothing.
 */
function selection(only: readonly string[] | undefined): string[] {
  if (!only) return [];
  const { files, pattern } = fullNameSelection(only, ' ?');
  return [...files, ...(pattern !== undefined ? ['-t', pattern] : [])];
}

const isFlag = (value: string, ...flags: string[]) => flags.some((flag) => value === flag || value.startsWith(`${flag}=`));

/**
 * Command: `base [--reporter=default] --reporter=json --outputFile=REPORT` (base is `vitest run …`: detect.ts adds
 * `run` so that vitest never waits in watch mode). Reporters on the command line replace the config's, so this
 * adapter serves commands whose config names none (then `default` is what the user sees) or whose command line
 * names its own (then those are kept and nothing else is added); vitestConfigAdapter serves the others.
 */
export const vitestAdapter: RunnerAdapter = {
  name: 'vitest',

  command(base, reportPath, only) {
    const words = shellWords(base);
    if (only?.length === 0 || (only && Array.isArray(words) && words.some(({ value }) => isFlag(value, '-t', '--testNamePattern')))) return undefined;
    const own = Array.isArray(words) && words.some(({ value }) => isFlag(value, '--reporter'));
    const args = [...(own ? [] : ['--reporter=default']), '--reporter=json', `--outputFile=${reportPath}`, ...selection(only)];
    return `${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse: parseJestJson,
};

/**
 * For a project whose vitest config names its own reporters: `VERIFIED_FIX_VITEST_REPORT=REPORT base --config
 * WRAPPER`, the wrapper loading the user's config and adding the json reporter after its reporters (see
 * VITEST_CONFIG_SOURCE). A `--config`/`-c` in base moves into VERIFIED_FIX_VITEST_CONFIG for the wrapper to load.
 */
export const vitestConfigAdapter: RunnerAdapter = {
  name: 'vitest',
  outputFiles: { [VITEST_CONFIG_FILE]: VITEST_CONFIG_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    const words = shellWords(base);
    if (only?.length === 0 || !Array.isArray(words) || (only && words.some(({ value }) => isFlag(value, '-t', '--testNamePattern')))) return undefined;
    const kept: string[] = [];
    let userConfig: string | undefined;
    for (let i = 0; i < words.length; i++) {
      const { value, raw } = words[i];
      if (value === '--config' || value === '-c') userConfig = words[++i]?.value;
      else if (value.startsWith('--config=')) userConfig = value.slice('--config='.length);
      else kept.push(raw);
    }
    const variables = [`${VITEST_REPORT_VARIABLE}=${shellQuote(reportPath)}`, ...(userConfig ? [`${VITEST_USER_CONFIG_VARIABLE}=${shellQuote(userConfig)}`] : [])];
    const args = ['--config', join(outputDir, VITEST_CONFIG_FILE), ...selection(only)];
    return [...variables, ...kept, ...args.map(shellQuote)].join(' ');
  },

  parse: parseJestJson,
};
