// Whether a jest project names its own results processor or setup files, which the engine's command-line ones would replace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellWord } from '../testResults/shell';

const CONFIG_FILES = ['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.json'];

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Where the user's jest names `option`: the command line, the `--config`/`-c` file, jest.config.*, or package.json's
 * "jest"; undefined when nowhere. A mention in a config file's text counts (the config is code and is not run here).
 */
function whereJestNames(workspace: string, args: readonly ShellWord[], option: string): string | undefined {
  if (args.some((word) => word.value === `--${option}` || word.value.startsWith(`--${option}=`))) return 'the command';
  const at = args.findIndex((word) => word.value === '--config' || word.value === '-c' || word.value.startsWith('--config='));
  const given = at < 0 ? undefined : args[at].value.startsWith('--config=') ? args[at].value.slice('--config='.length) : args[at + 1]?.value;
  for (const file of given !== undefined && !given.trimStart().startsWith('{') ? [given] : CONFIG_FILES) {
    if (read(join(workspace, file)).includes(option)) return file;
  }
  if (given?.includes(option)) return 'the command';
  try {
    const pkg = JSON.parse(read(join(workspace, 'package.json'))) as { jest?: Record<string, unknown> };
    if (pkg.jest?.[option] !== undefined) return 'package.json';
  } catch {
    // not JSON: nothing configured there
  }
  return undefined;
}

/**
 * Where the user's jest names a `testResultsProcessor`, which the engine's command-line one would replace; undefined
 * when nowhere. A false alarm only costs the `--json` report instead of the processor.
 */
export function ownJestProcessor(workspace: string, args: readonly ShellWord[]): string | undefined {
  return whereJestNames(workspace, args, 'testResultsProcessor');
}

/**
 * Where the user's jest names its own setup files after the framework (`setupFilesAfterEnv`, or jest 23's
 * `setupTestFrameworkScriptFile`), which a command-line `--setupFilesAfterEnv` would replace; undefined when nowhere.
 */
export function ownJestSetupAfterEnv(workspace: string, args: readonly ShellWord[]): string | undefined {
  return whereJestNames(workspace, args, 'setupFilesAfterEnv') ?? whereJestNames(workspace, args, 'setupTestFrameworkScriptFile');
}

/** Where the user's jest names its own `snapshotSerializers`, which a command-line `--snapshotSerializers` would replace. */
export function ownJestSerializers(workspace: string, args: readonly ShellWord[]): string | undefined {
  return whereJestNames(workspace, args, 'snapshotSerializers');
}

/**
 * The major version of the jest the workspace installs (its `jest` or `jest-cli` package), or undefined when neither
 * is found there. `--setupFilesAfterEnv` came with jest 24; an older jest refuses it as an unknown option.
 */
export function installedJestMajor(workspace: string): number | undefined {
  for (const name of ['jest', 'jest-cli']) {
    try {
      const { version } = JSON.parse(read(join(workspace, 'node_modules', name, 'package.json'))) as { version?: unknown };
      const major = typeof version === 'string' ? Number(/^(\d+)\./.exec(version)?.[1]) : NaN;
      if (Number.isInteger(major)) return major;
    } catch {
      // not installed under that name
    }
  }
  return undefined;
}
