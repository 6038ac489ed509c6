// The coverage runs of fault localisation: the unmodified code's tests run again, in the request's own sandbox and
// trees, with coverage on; each test's spectrum comes back.
import { rm } from 'node:fs/promises';
import type { PerTestPlan } from '../verification/stagedVerification';
import type { TestExecutor } from '../execution/executor';
import { verdicts } from '../testResults/compare';
import { splitId } from '../testResults/ids';
import { shellQuote } from '../testResults/shell';
import type { RunnerName } from '../testResults/types';
import type { TestSpectrum } from './ochiai';
import { PLUGIN_MODULE, PLUGIN_SOURCE, pytestSpectra, readPytestReports, withPlugin } from './pytestCoverage';
import { readV8Reports, V8_COVERAGE_VARIABLE, v8LineHits } from './v8Coverage';
import { reporterCommand } from '../testResults/reporterCommand';

/**
 * Node writes coverage per process, and a test file is one process: a test's own lines need a run of that test
 * alone. The failing tests' runs come first (up to this many): their lines are what Ochiai ranks.
 */
const MAX_FAILING_RUNS = 4;
/** Then passing tests, those in a failing test's file first: they tell the lines every test runs from the suspicious ones. */
const MAX_PASSING_RUNS = 8;

/** Runners whose tests run as plain node processes, so NODE_V8_COVERAGE sees the file as written. */
const V8_RUNNERS: ReadonlySet<RunnerName> = new Set(['node', 'mocha', 'jest', 'vitest']);

/** What the coverage runs need: the request's executor and slots, the baseline's plan, and the file as it runs. */
export interface CoverageContext {
  readonly executor: TestExecutor;
  readonly plan: PerTestPlan;
  readonly relativePath: string;
  readonly fileText: string;
  /** Takes one of the request's parallel slots for a run, as every other run does. */
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
}

/** The tests' spectra, or why there are none; `runs` is what it cost either way. */
export type CoverageOutcome = { readonly spectra: readonly TestSpectrum[]; readonly runs: number } | { readonly problem: string; readonly runs: number };

/** One run of the unmodified code with an output folder; undefined when it was cancelled or did not run its tests. */
export async function coverageRun(context: CoverageContext, label: string, command: (reportPath: string, outputDir: string) => string, files: Record<string, string>) {
  const run = await context.slot(() =>
    context.executor.run(context.fileText, label, { command: (report, out) => command(report, out ?? ''), outputFiles: files }),
  );
  const { status, cancelled } = run.verdict;
  if (cancelled || status === 'error' || status === 'timeout' || !run.outputDir) {
    if (run.outputDir) await rm(run.outputDir, { recursive: true, force: true });
    return undefined;
  }
  return { ...run, outputDir: run.outputDir };
}

/** One test alone under NODE_V8_COVERAGE: its outcome in this run and the lines it ran (undefined: none recorded). */
async function v8Test(context: CoverageContext, id: string, label: string): Promise<{ failed: boolean; lines?: Set<number> } | undefined> {
  const { plan, relativePath, fileText } = context;
  const only = reporterCommand(plan.adapter, plan.base, [id]);
  if (!only) return undefined;
  const run = await coverageRun(context, label, (report, out) => `${V8_COVERAGE_VARIABLE}=${shellQuote(out)} ${only.command(report, out)}`, { ...only.outputFiles });
  if (!run) return undefined;
  try {
    const outcomes = [...verdicts(plan.adapter.parse(run.report ?? '', run.cwd ?? '')).values()];
    if (!outcomes.includes('failed') && !outcomes.includes('passed')) return undefined;
    const lines = v8LineHits(await readV8Reports(run.outputDir), relativePath, fileText);
    return { failed: outcomes.includes('failed'), ...(lines ? { lines } : {}) };
  } finally {
    await rm(run.outputDir, { recursive: true, force: true });
  }
}

/** The passing tests to run alone: those sharing a file with a failing test first, then the rest in report order. */
export function passingToRun(plan: PerTestPlan): string[] {
  const failingScopes = new Set(plan.failing.map((id) => splitId(id).scope));
  const passing = [...verdicts(plan.baseline)].filter(([, outcome]) => outcome === 'passed').map(([id]) => id);
  const near = passing.filter((id) => failingScopes.has(splitId(id).scope));
  return [...near, ...passing.filter((id) => !failingScopes.has(splitId(id).scope))].slice(0, MAX_PASSING_RUNS);
}

/**
 * Node-run suites: the failing tests one by one, then (only when those recorded the file, so a transformed file
 * costs no more) the chosen passing tests one by one, each wave in parallel in the request's slots.
 */
async function v8Spectra(context: CoverageContext): Promise<CoverageOutcome> {
  const failing = context.plan.failing.slice(0, MAX_FAILING_RUNS);
  const first = await Promise.all(failing.map((id, i) => v8Test(context, id, `loc-f${i}`)));
  let runs = failing.length;
  const recorded = first.filter((test) => test?.failed && test.lines);
  if (recorded.length === 0) {
    const why = first.some((test) => test?.failed)
      ? `no run recorded ${context.relativePath} as it is written (transformed before it runs, by Babel or a bundler, or never loaded)`
      : 'the failing tests did not fail again when run alone with coverage';
    return { problem: why, runs };
  }
  const passing = passingToRun(context.plan);
  const second = await Promise.all(passing.map((id, i) => v8Test(context, id, `loc-p${i}`)));
  runs += passing.length;
  const spectra = [...first, ...second]
    .filter((test) => test !== undefined)
    .map((test): TestSpectrum => ({ failed: test.failed, lines: test.lines ?? new Set() }));
  return { spectra, runs };
}

/** pytest: one run of the whole suite with the plugin, which records every test's lines on its own. */
async function pytestRun(context: CoverageContext): Promise<CoverageOutcome> {
  const full = reporterCommand(context.plan.adapter, context.plan.base);
  if (!full) return { problem: 'pytest\'s command could not be built', runs: 0 };
  const files = { ...full.outputFiles, [`${PLUGIN_MODULE}.py`]: PLUGIN_SOURCE };
  const run = await coverageRun(context, 'loc', (report, out) => withPlugin(full.command(report, out), out, context.relativePath), files);
  if (!run) return { problem: 'the coverage run did not finish', runs: 1 };
  try {
    const spectra = [...pytestSpectra(await readPytestReports(run.outputDir))].map(([id, test]) => ({ ...test, id }));
    if (!spectra.some((test) => test.failed)) return { problem: 'the coverage run recorded no failing test', runs: 1 };
    return { spectra, runs: 1 };
  } finally {
    await rm(run.outputDir, { recursive: true, force: true });
  }
}

/** Per-test coverage of the unmodified code where the runner gives it cheaply, or why not. */
export async function coverageSpectra(context: CoverageContext): Promise<CoverageOutcome> {
  const runner = context.plan.adapter.name;
  if (runner === 'pytest') return pytestRun(context);
  if (V8_RUNNERS.has(runner)) return v8Spectra(context);
  return { problem: `coverage is read for node's test runner, mocha, jest, vitest and pytest, not ${runner}`, runs: 0 };
}
