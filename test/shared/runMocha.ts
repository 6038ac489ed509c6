// Runs mocha test files and prints the plain `N passed, N failed` line CI reads (mocha's own summary is not it).
import Mocha from 'mocha';

/** How a mocha run ended. */
export interface MochaResult {
  readonly passed: number;
  readonly failed: number;
}

/** Runs `files` in one mocha instance; a file that fails to load counts as one failure. */
export function runMocha(files: readonly string[], options: Mocha.MochaOptions = {}): Promise<MochaResult> {
  const mocha = new Mocha({ ui: 'bdd', color: false, ...options });
  for (const file of files) mocha.addFile(file);
  return new Promise((resolve) => {
    const report = (result: MochaResult, pending = 0) => {
      console.log(`${result.passed} passed, ${result.failed} failed${pending ? ` (${pending} pending)` : ''}`);
      resolve(result);
    };
    try {
      const runner = mocha.run((failures) => report({ passed: runner.stats?.passes ?? 0, failed: failures }, runner.stats?.pending));
    } catch (error) {
      console.error(error);
      report({ passed: 0, failed: Math.max(1, files.length) });
    }
  });
}
