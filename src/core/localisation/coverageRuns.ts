// The coverage runs of fault localisation: the unmodified code's tests run again, in the request's own sandbox and
// trees, with coverage on; each test's spectrum comes back.
import { rm } from 'node:fs/promises';
import type { PerTestPlan } from '../verification/stagedVerification';
import type { TestExecutor } from '../execution/executor';
import { verdicts } from '../testResults/compare';
import { splitId } from '../testResults/ids';
import type { TestSpectrum } from './ochiai';
import { PLUGIN_MODULE, PLUGIN_SOURCE, pytestSpectra, readPytestReports, withPlugin } from './pytestCoverage';
import { lineRecorderFor, noLinesProblem } from './lineRecorders';
import type { LineRecorder, RecordedLines } from './lineRecorders';
import { reporterCommand } from '../testResults/reporterCommand';

/**
 * Node writes coverage per process, and a test file is one process: a test's own lines need a run of that test
 * alone. The failing tests' runs come first (up to this many): their lines are what Ochiai ranks.
 */
export const MAX_FAILING_RUNS = 4;
/** Then passing tests, those in a failing test's file first: they tell the lines every test runs from the suspicious ones. */
const MAX_PASSING_RUNS = 8;

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
async function coverageRun(context: CoverageContext, label: string, command: (reportPath: string, outputDir: string) => string, files: Record<string, string>) {
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

/**
 * One test alone with `recorder`'s coverage: its outcome in this run and what it recorded; undefined when it ran no
 * test (or was cancelled).
 */
export async function recordedTest(context: CoverageContext, recorder: LineRecorder, id: string, label: string): Promise<{ failed: boolean; recorded: RecordedLines } | undefined> {
  const { plan } = context;
  const only = reporterCommand(plan.adapter, plan.base, [id]);
  if (!only) return undefined;
  const run = await coverageRun(context, label, (report, out) => recorder.command(only.command(report, out), out), { ...only.outputFiles });
  if (!run) return undefined;
  try {
    const outcomes = [...verdicts(plan.adapter.parse(run.report ?? '', run.cwd ?? '')).values()];
    if (!outcomes.includes('failed') && !outcomes.includes('passed')) return undefined;
    return { failed: outcomes.includes('failed'), recorded: await recorder.read(run.outputDir, run.cwd ?? '') };
  } finally {
    await rm(run.outputDir, { recursive: true, force: true });
  }
}

/** One test alone: its outcome in this run and the lines of the file it ran (undefined: none recorded). */
async function lineTest(context: CoverageContext, recorder: LineRecorder, id: string, label: string): Promise<{ failed: boolean; lines?: Set<number> } | undefined> {
  const test = await recordedTest(context, recorder, id, label);
  const lines = test?.recorded.linesOf(context.relativePath, context.fileText);
  return test && { failed: test.failed, ...(lines ? { lines } : {}) };
}

/** The passing tests to run alone: those sharing a file with a failing test first, then the rest in report order. */
export function passingToRun(plan: PerTestPlan): string[] {
  const failingScopes = new Set(plan.failing.map((id) => splitId(id).scope));
  const passing = [...verdicts(plan.baseline)].filter(([, outcome]) => outcome === 'passed').map(([id]) => id);
  const near = passing.filter((id) => failingScopes.has(splitId(id).scope));
  return [...near, ...passing.filter((id) => !failingScopes.has(splitId(id).scope))].slice(0, MAX_PASSING_RUNS);
}

/**
 * Node-run suites (node's test runner, mocha, jest): the failing tests one by one, then (only when those recorded
 * the file, so a file no run records costs no more) the chosen passing tests one by one, each wave in parallel in
 * the request's slots.
 */
async function lineSpectra(context: CoverageContext, recorder: LineRecorder): Promise<CoverageOutcome> {
  const failing = context.plan.failing.slice(0, MAX_FAILING_RUNS);
  const first = await Promise.all(failing.map((id, i) => lineTest(context, recorder, id, `loc-f${i}`)));
  let runs = failing.length;
  const recorded = first.filter((test) => test?.failed && test.lines);
  if (recorded.length === 0) {
    return { problem: noLinesProblem(recorder, first.some((test) => test?.failed), context.relativePath), runs };
  }
  const passing = passingToRun(context.plan);
  const second = await Promise.all(passing.map((id, i) => lineTest(context, recorder, id, `loc-p${i}`)));
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
  const recorder = lineRecorderFor(runner, context.plan.base);
  return 'problem' in recorder ? { problem: recorder.problem, runs: 0 } : lineSpectra(context, recorder);
}
