// Coverage across a workspace: each failing (then a few passing) test's lines in every source file, from the same
// runs single-file localisation makes (coverageRuns), keyed `file:line` for Ochiai.
import type { TestExecutor } from '../execution/executor';
import { isWorkspaceFile } from '../testResults/stackLocations';
import type { PerTestPlan } from '../verification/stagedVerification';
import { coverageSpectra, MAX_FAILING_RUNS, passingToRun, recordedTest } from './coverageRuns';
import type { CoverageContext } from './coverageRuns';
import type { TestSpectrum } from './ochiai';
import { lineRecorderFor, noLinesProblem } from './lineRecorders';
import type { LineRecorder } from './lineRecorders';

/** pytest's plugin follows one file per run: the whole suite once per source file, for this many files at most. */
const MAX_PYTEST_FILES = 6;

/** A source file and its text as the runs see it. */
export interface SourceFile {
  readonly relativePath: string;
  readonly text: string;
}

/** `file:line`, the key of a line across files. */
export const lineKey = (relativePath: string, line: number) => `${relativePath}:${line}`;

/** One test's spectrum over the workspace, with its id (for saying which failing test ran what). */
export interface WorkspaceSpectrum extends TestSpectrum<string> {
  readonly id: string;
}

export type WorkspaceCoverage = { readonly spectra: readonly WorkspaceSpectrum[]; readonly runs: number } | { readonly problem: string; readonly runs: number };

export interface WorkspaceCoverageContext {
  readonly executor: TestExecutor;
  readonly plan: PerTestPlan;
  /** The file the executor writes (unmodified) and its text: every run is of the workspace as it is. */
  readonly carrier: SourceFile;
  readonly sources: readonly SourceFile[];
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
}

/** The source file a coverage script's url is, preferring the longest path that matches (`lib/a.js` over `a.js`). */
function sourceOf(url: string, sources: readonly SourceFile[]): SourceFile | undefined {
  let best: SourceFile | undefined;
  for (const source of sources) if (isWorkspaceFile(url, source.relativePath) && (!best || source.relativePath.length > best.relativePath.length)) best = source;
  return best;
}

/** The source files a run's coverage names. */
function namedSources(names: readonly string[], sources: readonly SourceFile[]): SourceFile[] {
  const named = new Set<SourceFile>();
  for (const name of names) {
    const source = sourceOf(name, sources);
    if (source) named.add(source);
  }
  return [...named];
}

/** One test alone with coverage: its outcome and the `file:line` keys it ran in the source files. */
async function lineTest(context: WorkspaceCoverageContext, recorder: LineRecorder, id: string, label: string): Promise<WorkspaceSpectrum | undefined> {
  const { plan, carrier } = context;
  const single: CoverageContext = { executor: context.executor, plan, relativePath: carrier.relativePath, fileText: carrier.text, slot: context.slot };
  const test = await recordedTest(single, recorder, id, label);
  if (!test) return undefined;
  const lines = new Set<string>();
  for (const source of namedSources(test.recorded.names, context.sources)) {
    for (const line of test.recorded.linesOf(source.relativePath, source.text) ?? []) lines.add(lineKey(source.relativePath, line));
  }
  return { id, failed: test.failed, lines };
}

async function lineWorkspace(context: WorkspaceCoverageContext, recorder: LineRecorder): Promise<WorkspaceCoverage> {
  const failing = context.plan.failing.slice(0, MAX_FAILING_RUNS);
  const first = await Promise.all(failing.map((id, i) => lineTest(context, recorder, id, `wloc-f${i}`)));
  const recorded = first.filter((test): test is WorkspaceSpectrum => test !== undefined && test.failed && test.lines.size > 0);
  if (recorded.length === 0) {
    return { problem: noLinesProblem(recorder, first.some((test) => test?.failed), 'a source file'), runs: failing.length };
  }
  const passing = passingToRun(context.plan);
  const second = await Promise.all(passing.map((id, i) => lineTest(context, recorder, id, `wloc-p${i}`)));
  const spectra = [...first, ...second].filter((test): test is WorkspaceSpectrum => test !== undefined);
  return { spectra, runs: failing.length + passing.length };
}

/** pytest: one plugin run per source file (the plugin follows one), merged by test id. */
async function pytestWorkspace(context: WorkspaceCoverageContext): Promise<WorkspaceCoverage> {
  const byId = new Map<string, { failed: boolean; lines: Set<string> }>();
  let runs = 0;
  const files = context.sources.filter((s) => s.relativePath.endsWith('.py')).slice(0, MAX_PYTEST_FILES);
  const outcomes = await Promise.all(
    files.map(async (source) => {
      const outcome = await coverageSpectra({ executor: context.executor, plan: context.plan, relativePath: source.relativePath, fileText: source.text, slot: context.slot });
      return { source, outcome };
    }),
  );
  for (const { source, outcome } of outcomes) {
    runs += outcome.runs;
    if ('problem' in outcome) continue;
    outcome.spectra.forEach((spectrum, i) => {
      const id = spectrum.id ?? `${i}`;
      const entry = byId.get(id) ?? { failed: spectrum.failed, lines: new Set<string>() };
      for (const line of spectrum.lines) entry.lines.add(lineKey(source.relativePath, line));
      byId.set(id, entry);
    });
  }
  if (byId.size === 0) return { problem: 'the coverage runs recorded no failing test', runs };
  return { spectra: [...byId].map(([id, s]) => ({ id, ...s })), runs };
}

/** Per-test coverage of the workspace's source files where the runner gives it, or why not. */
export async function workspaceCoverage(context: WorkspaceCoverageContext): Promise<WorkspaceCoverage> {
  const runner = context.plan.adapter.name;
  if (runner === 'pytest') return pytestWorkspace(context);
  const recorder = lineRecorderFor(runner, context.plan.base);
  return 'problem' in recorder ? { problem: recorder.problem, runs: 0 } : lineWorkspace(context, recorder);
}
