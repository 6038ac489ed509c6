// Whether a vitest project's config names its own reporters, which reporters on the command line would replace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellWord } from '../testResults/shell';
import { VITEST_CONFIG_NAMES } from '../testResults/vitestConfig';

/**
 * True when the command names no `--reporter` and the config it runs with (`--config`/`-c`, else the first of
 * vitest's config names that exists) mentions `reporters`. The config is code and is not run here: a mention
 * that is not one only costs going through the wrapper config, which keeps the reporters either way.
 */
export function vitestConfigNamesReporters(workspace: string, args: readonly ShellWord[]): boolean {
  if (args.some(({ value }) => value === '--reporter' || value.startsWith('--reporter='))) return false;
  const at = args.findIndex(({ value }) => value === '--config' || value === '-c' || value.startsWith('--config='));
  const given = at < 0 ? undefined : args[at].value.startsWith('--config=') ? args[at].value.slice('--config='.length) : args[at + 1]?.value;
  for (const file of given !== undefined ? [given] : VITEST_CONFIG_NAMES) {
    try {
      return readFileSync(join(workspace, file), 'utf8').includes('reporters');
    } catch {
      // absent: vitest tries the next name
    }
  }
  return false;
}
