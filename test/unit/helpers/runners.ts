// Where scripts/install-test-runners.sh put the runners the project does not depend on (mocha 1 to 11, tape, tap).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache folder of installed runners: ${VERIFIED_FIX_CACHE:-~/.cache/verified-fix}/runners. */
export function runnersCache(): string {
  return join(process.env.VERIFIED_FIX_CACHE || join(homedir(), '.cache', 'verified-fix'), 'runners');
}

/** The node_modules folder of one cached runner (`mocha-8`, `tape-5`), or undefined when it is not installed. */
export function cachedRunner(folder: string, bin: string): string | undefined {
  const modules = join(runnersCache(), folder, 'node_modules');
  return existsSync(join(modules, '.bin', bin)) ? modules : undefined;
}

/** The skip message of a test that needs a runner the cache lacks. */
export function missingRunner(folder: string): string {
  return `SKIPPED: ${folder} is not in ${runnersCache()} (run scripts/install-test-runners.sh)`;
}

/** The mocha releases the install script provides, oldest first. */
export const MOCHA_FOLDERS = ['mocha-1', 'mocha-3', 'mocha-5', 'mocha-8', 'mocha-9.0', 'mocha-10', 'mocha-11'] as const;
