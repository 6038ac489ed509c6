// Coverage once, in the baseline run itself: node's test runner starts a process per test file, and the reach hook
// makes each write which functions it ran, so the one run that finds the failing tests also says which tests reach the selection.
// Mocha runs every file in one process: there the engine's hook also records what each test file required.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../base/logger';
import type { ExecutedRun, RunOptions } from '../execution/executor';
import { readV8Reports } from '../localisation/v8Coverage';
import { withReachHook } from '../localisation/reachHook';
import { reachFromCoverage } from '../localisation/reachingTests';
import { reachFromLoads } from '../localisation/loadReach';
import { MOCHA_LOADS_FILE, MOCHA_LOADS_VARIABLE } from '../testResults/mochaHook';
import { PYTEST_LOADS_FILE, PYTEST_LOADS_VARIABLE } from '../testResults/pytestLoads';
import { reachFromPytestLoads } from '../localisation/pytestReach';
import type { ReporterRun } from '../testResults/reporterCommand';
import { shellQuote } from '../testResults/shell';
import type { ResolvedRunner } from '../testCommand/runner';
import type { PerTestPlan } from '../verification/stagedVerification';
import type { Reach } from '../verification/reachScope';

/** Languages node runs as written: a TypeScript file goes through a loader whose offsets are not the file's. */
const AS_WRITTEN = new Set(['javascript', 'javascriptreact']);

/** Runners whose reaching tests this tool can tell: node (a process per test file), mocha and pytest (what each file loads). */
const REACH_RUNNERS = new Set(['node', 'mocha', 'pytest']);

/**
 * Why the baseline runs without coverage (the survivors then run the whole command), or undefined when it takes it:
 * node's test runner gives a process per test file; mocha runs them in one process, where the engine's hook records
 * which files load the target module. jest's workers, vitest's pool and pytest also run many test files in one
 * process, and nothing here records what each file loads, so a test there could see what another left in memory.
 */
export function whyNoBaselineCoverage(runner: ResolvedRunner | undefined, languageId: string, fullSuite: boolean): string | undefined {
  if (fullSuite) return 'every survivor runs the full suite (--full-suite / verifiedFix.fullSuiteForEveryFix)';
  if (!runner || !('adapter' in runner)) return 'the runner gives no per-test results';
  if (!REACH_RUNNERS.has(runner.adapter.name)) return `${runner.adapter.name} runs many test files in one process, and this tool does not record what each of them loads, so coverage cannot tell which tests reach the change (node's test runner gives a process per file; mocha's and pytest's files are told apart by what they load)`;
  if (runner.adapter.name === 'pytest') return languageId === 'python' ? undefined : `the target is not a Python file (${languageId})`;
  if (!AS_WRITTEN.has(languageId)) return `${languageId} files run transformed, so their coverage does not match the file`;
  return undefined;
}

/**
 * The baseline's command with the reach hook in every node process (which functions each ran; for mocha also the
 * loads record); pytest's plugin records its loads alone.
 */
export function withCoverage(full: ReporterRun, runner?: ResolvedRunner): RunOptions {
  const name = runner && 'adapter' in runner ? runner.adapter.name : undefined;
  if (name === 'pytest') return { command: (report, out) => `${PYTEST_LOADS_VARIABLE}=${shellQuote(join(out ?? '', PYTEST_LOADS_FILE))} ${full.command(report, out)}`, outputFiles: full.outputFiles ?? {} };
  const hooked = withReachHook(full);
  if (name !== 'mocha') return hooked;
  return { ...hooked, command: (report, out) => `${MOCHA_LOADS_VARIABLE}=${shellQuote(join(out ?? '', MOCHA_LOADS_FILE))} ${hooked.command(report, out)}` };
}

/** The reach from the baseline run's coverage files; the folder is removed either way. Logs the result and its cost. */
export async function reachOfBaseline(run: ExecutedRun, plan: PerTestPlan | undefined, target: { relativePath: string; text: string; start: number; end: number }, logger: Logger): Promise<Reach> {
  const started = performance.now();
  try {
    if (!plan) return { problem: 'the baseline gave no per-test results' };
    if (!run.outputDir) return { problem: 'the baseline run had no output folder for coverage' };
    if (plan.adapter.name === 'pytest') {
      const loads = await readFile(join(run.outputDir, PYTEST_LOADS_FILE), 'utf8').catch(() => undefined);
      return await reachFromPytestLoads(loads, plan, target.relativePath, target.text, target.start, target.end);
    }
    const reports = await readV8Reports(run.outputDir);
    if (plan.adapter.name === 'mocha') {
      const loads = await readFile(join(run.outputDir, MOCHA_LOADS_FILE), 'utf8').catch(() => undefined);
      return reachFromLoads(reports, loads, plan, target.relativePath, target.text, target.start, target.end);
    }
    return reachFromCoverage(reports, plan, target.relativePath, target.text, target.start, target.end);
  } catch (error) {
    return { problem: `the baseline's coverage could not be read (${(error as Error).message})` };
  } finally {
    if (run.outputDir) await rm(run.outputDir, { recursive: true, force: true }).catch(() => undefined);
    logger.info(`reaching tests: the baseline's coverage files read in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  }
}

/**
 * From this share of the suite's tests on, the reaching tests are not selected: a survivor's run of them costs about
 * a full run, and the top-ranked fix would then pay for a second one (found on a node suite where 132 of 140 tests
 * reached the change and the top fix ran 132 tests, then all 140).
 */
const MOST_OF_THE_SUITE = 0.75;

/** `reach`, or, when most of the suite reaches the change, why survivors run the whole command instead. */
export function worthSelecting(reach: Reach): Reach {
  if ('problem' in reach || reach.ids.length < MOST_OF_THE_SUITE * reach.total) return reach;
  return { problem: `${reach.ids.length} of ${reach.total} tests reach the change, most of the suite: running only those would save little and cost the top-ranked fix a second, full run` };
}

/** One log line: which tests survivors run, or why they run the whole command. */
export function describeReach(reach: Reach): string {
  if ('problem' in reach) return `reaching tests: none selected (${reach.problem}); survivors run the full command`;
  const how = reach.byLoads ? 'are in test files that load the target module (one process runs them all)' : 'ran the selected function on the unmodified code';
  return `reaching tests: ${reach.ids.length} of ${reach.total} tests ${how}; a survivor runs only those (the top-ranked verified fix also runs the full suite once)`;
}
