// Vitest: its json reporter (jest's format) goes to the report beside the user's reporters; a selection is file filters plus `-t`.
import { join } from 'node:path';
import { fullNameSelection } from './ids';
import { parseJestJson } from './jestJson';
import { shellQuote, shellWords } from './shell';
import type { RunnerAdapter } from './types';
import { VITEST_GUARD_FILE, VITEST_GUARD_SOURCE } from './assertGuard';
import { VITEST_CONFIG_FILE, VITEST_CONFIG_SOURCE, VITEST_GUARD_VARIABLE, VITEST_REPORT_VARIABLE, VITEST_ROUNDS_VARIABLE, VITEST_USER_CONFIG_VARIABLE } from './vitestConfig';
import { VITEST_ROUNDS_FILE, VITEST_ROUNDS_SOURCE } from './vitestRounds';

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
 * `base` through the wrapper config (vitestConfig.ts), which adds the assertion guard to the setup files and, when
 * `reporters` says so, the json reporter to the config's: `VERIFIED_FIX_VITEST_REPORT=REPORT
 * VERIFIED_FIX_VITEST_GUARD=GUARD base --config WRAPPER`. A `--config`/`-c` in base moves into
 * VERIFIED_FIX_VITEST_CONFIG for the wrapper to load. `cliReporters`: the json reporter goes on the command line
 * instead (`[--reporter=default] --reporter=json --outputFile=REPORT`), for a command whose config names no
 * reporters (then `default` is what the user sees) or whose command line names its own (those are kept; reporters
 * on the command line replace the config's, the wrapper's too). Either way the shared stage 1's reporter
 * (vitestRounds.ts) comes last: it does nothing in a run that names no plan.
 */
function vitestCommand(base: string, reportPath: string, only: readonly string[] | undefined, outputDir: string, cliReporters: boolean): string | undefined {
  const words = shellWords(base);
  if (only?.length === 0 || !Array.isArray(words) || (only && words.some(({ value }) => isFlag(value, '-t', '--testNamePattern')))) return undefined;
  const rounds = join(outputDir, VITEST_ROUNDS_FILE);
  const kept: string[] = [];
  let userConfig: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const { value, raw } = words[i];
    if (value === '--config' || value === '-c') userConfig = words[++i]?.value;
    else if (value.startsWith('--config=')) userConfig = value.slice('--config='.length);
    else kept.push(raw);
  }
  const variables = [
    `${VITEST_REPORT_VARIABLE}=${shellQuote(reportPath)}`,
    `${VITEST_GUARD_VARIABLE}=${shellQuote(join(outputDir, VITEST_GUARD_FILE))}`,
    ...(userConfig ? [`${VITEST_USER_CONFIG_VARIABLE}=${shellQuote(userConfig)}`] : []),
    ...(cliReporters ? [] : [`${VITEST_ROUNDS_VARIABLE}=${shellQuote(rounds)}`]),
  ];
  const own = words.some(({ value }) => isFlag(value, '--reporter'));
  const reporters = cliReporters ? [...(own ? [] : ['--reporter=default']), '--reporter=json', `--reporter=${rounds}`, `--outputFile=${reportPath}`] : [];
  const args = ['--config', join(outputDir, VITEST_CONFIG_FILE), ...reporters, ...selection(only)];
  return [...variables, ...kept, ...args.map(shellQuote)].join(' ');
}

const outputFiles = { [VITEST_CONFIG_FILE]: VITEST_CONFIG_SOURCE, [VITEST_GUARD_FILE]: VITEST_GUARD_SOURCE, [VITEST_ROUNDS_FILE]: VITEST_ROUNDS_SOURCE };

/** For a project whose config names no reporters, or whose command line names its own: the json reporter on the command line. */
export const vitestAdapter: RunnerAdapter = {
  name: 'vitest',
  outputFiles,
  command: (base, reportPath, only, outputDir = '') => vitestCommand(base, reportPath, only, outputDir, true),
  parse: parseJestJson,
};

/** For a project whose vitest config names its own reporters: the json reporter added to them by the wrapper. */
export const vitestConfigAdapter: RunnerAdapter = {
  name: 'vitest',
  outputFiles,
  command: (base, reportPath, only, outputDir = '') => vitestCommand(base, reportPath, only, outputDir, false),
  parse: parseJestJson,
};
