// Jest: a results processor writes the report (jestProcessor.ts); a selection is exact paths plus one `-t` regex over full names.
import { join } from 'node:path';
import { fullNameSelection } from './ids';
import { parseJestJson } from './jestJson';
import { JEST_PROCESSOR_FILE, JEST_PROCESSOR_SOURCE, JEST_REPORT_VARIABLE } from './jestProcessor';
import { shellQuote, shellWords } from './shell';
import type { RunnerAdapter } from './types';
import { JEST_GUARD_FILE, JEST_GUARD_SOURCE } from './assertGuard';

/**
 * `only` as jest arguments: `--runTestsByPath FILES` (exact paths: plain positional arguments would be regexes over
 * paths) and `-t '^(?:full name$|…)'`, where a full name is the describe titles and the test title joined by
 * spaces. Jest compiles `-t` case-insensitively, and the one regex applies to every listed file, so a test of the
 * same full name (in any case) in another listed file runs too; the others are reported as skipped.
 */
function selection(only: readonly string[] | undefined): string[] {
  if (!only) return [];
  const { files, pattern } = fullNameSelection(only);
  return ['--runTestsByPath', ...files, ...(pattern !== undefined ? ['-t', pattern] : [])];
}

const OWN_SELECTION = ['-t', '--testNamePattern', '--runTestsByPath'];

/**
 * Jest's bail (`--bail` on the command line, `bail` in the config) ends the process at its first failing test file
 * once the reporters have run, before the results processor or `--json` write anything: every run that failed left
 * no report (on a jest 29 project with `"bail": 1`, no per-test result in any run). The runs it reports on run every
 * test instead, as the last option of their command says: the baseline learns every failing test, not those of the
 * first file, and a run that passes runs the same tests either way.
 */
const NO_BAIL = '--bail=0';

/** Whether the user's invocation selects its own tests (another `-t` or `--runTestsByPath` would fight it). */
function selectsOwnTests(base: string): boolean {
  const words = shellWords(base);
  return Array.isArray(words) && words.some(({ value }) => OWN_SELECTION.some((flag) => value === flag || value.startsWith(`${flag}=`)));
}

/**
 * Command: `VERIFIED_FIX_JEST_REPORT=REPORT base --testResultsProcessor=PROCESSOR --bail=0`: the user's reporters
 * (config or command line), `--silent`, `projects` and where output goes stay as they are. `only` is undefined when
 * the user's command selects its own tests.
 */
export const jestAdapter: RunnerAdapter = {
  name: 'jest',
  outputFiles: { [JEST_PROCESSOR_FILE]: JEST_PROCESSOR_SOURCE },

  command(base, reportPath, only, outputDir = '') {
    if (only?.length === 0 || (only && selectsOwnTests(base))) return undefined;
    const args = [`--testResultsProcessor=${join(outputDir, JEST_PROCESSOR_FILE)}`, NO_BAIL, ...selection(only)];
    return `${JEST_REPORT_VARIABLE}=${shellQuote(reportPath)} ${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse: parseJestJson,
};

/**
 * For a project whose config names its own `testResultsProcessor` (the command-line one would replace it):
 * `base --json --outputFile=REPORT --bail=0`. Jest then prints what the tests log on stderr instead of stdout, and its
 * reporters stay as configured.
 */
export const jestJsonAdapter: RunnerAdapter = {
  name: 'jest',

  command(base, reportPath, only) {
    if (only?.length === 0 || (only && selectsOwnTests(base))) return undefined;
    const args = ['--json', `--outputFile=${reportPath}`, NO_BAIL, ...selection(only)];
    return `${base} ${args.map(shellQuote).join(' ')}`;
  },

  parse: parseJestJson,
};

/**
 * The jest options that load a module in each test file's environment once `expect` and the test globals are in,
 * before the test file: the guard goes in one the project does not set (the command-line option replaces the
 * config's). As a setup file it runs after everything jest sets up; as a snapshot serializer, just before the
 * project's own setup files.
 */
export type JestGuardOption = 'setupFilesAfterEnv' | 'snapshotSerializers';

/** `adapter` with the jest guard (assertGuard.ts) loaded through `option`. */
export function withJestGuard(adapter: RunnerAdapter, option: JestGuardOption): RunnerAdapter {
  return {
    ...adapter,
    outputFiles: { ...adapter.outputFiles, [JEST_GUARD_FILE]: JEST_GUARD_SOURCE },
    command(base, reportPath, only, outputDir) {
      const command = adapter.command(base, reportPath, only, outputDir);
      return command === undefined || !outputDir ? command : `${command} ${shellQuote(`--${option}=${join(outputDir, JEST_GUARD_FILE)}`)}`;
    },
  };
}
