// Whether a jest project names its own results processor, which the engine's command-line one would replace.
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
 * Where the user's jest names a `testResultsProcessor`: the command line, the `--config`/`-c` file, jest.config.*,
 * or package.json's "jest"; undefined when nowhere. A mention in a config file's text counts (the config is code
 * and is not run here): a false alarm only costs the `--json` report instead of the processor.
 */
export function ownJestProcessor(workspace: string, args: readonly ShellWord[]): string | undefined {
  if (args.some((word) => word.value === '--testResultsProcessor' || word.value.startsWith('--testResultsProcessor='))) return 'the command';
  const at = args.findIndex((word) => word.value === '--config' || word.value === '-c' || word.value.startsWith('--config='));
  const given = at < 0 ? undefined : args[at].value.startsWith('--config=') ? args[at].value.slice('--config='.length) : args[at + 1]?.value;
  for (const file of given !== undefined && !given.trimStart().startsWith('{') ? [given] : CONFIG_FILES) {
    if (read(join(workspace, file)).includes('testResultsProcessor')) return file;
  }
  if (given?.includes('testResultsProcessor')) return 'the command';
  try {
    const pkg = JSON.parse(read(join(workspace, 'package.json'))) as { jest?: { testResultsProcessor?: unknown } };
    if (pkg.jest?.testResultsProcessor !== undefined) return 'package.json';
  } catch {
    // not JSON: nothing configured there
  }
  return undefined;
}
