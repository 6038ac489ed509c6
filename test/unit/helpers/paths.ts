// Paths the tests need, correct both from the sources and from the bundled tests under out/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'verified-fix') return dir;
    if (dirname(dir) === dir) throw new Error(`no verified-fix package.json above ${from}`);
  }
}

export const repoRoot = findRepoRoot(__dirname);
export const fixturesDir = join(repoRoot, 'test', 'fixtures');
export const cliPath = join(repoRoot, 'dist', 'cli.js');

/**
 * The text of a fixture script under test/fixtures/runner. Tests put it inside the run's own folder: the
 * sandbox gives each run a private /tmp, so a checkout under /tmp is invisible to the commands it runs.
 */
export function runnerFixture(name: string): string {
  return readFileSync(join(fixturesDir, 'runner', name), 'utf8');
}
