// Workspace-level fault localisation: which functions of the project's source files the failing tests point at,
// from their per-test coverage (Ochiai over every source line) and their stack frames, most suspicious first.
import type { Logger } from '../base/logger';
import { languageIdOf } from '../base/textRange';
import type { TestExecutor } from '../execution/executor';
import { grammarFor } from '../mutation/grammars';
import { isTestRelated } from '../security/testFiles';
import { verdicts } from '../testResults/compare';
import type { PerTestPlan } from '../verification/stagedVerification';
import { functionSpans } from './functionSpans';
import { ochiai } from './ochiai';
import { rankFunctions, testLabel, whatFailingTestsRun } from './rankFunctions';
import type { RankedFunction, SourceFunctions } from './rankFunctions';
import { stackWeights } from './stackFrames';
import { workspaceCoverage } from './workspaceCoverage';
import type { SourceFile, WorkspaceSpectrum } from './workspaceCoverage';

/** Source files read at most: a project larger than this is localised over the first ones its listing gives. */
export const MAX_SOURCE_FILES = 400;
/** Larger files are generated or bundled, not where a hand-made bug lives. */
export const MAX_SOURCE_BYTES = 256 * 1024;
/** Folders of build output and vendored code that a listing without .gitignore still holds. */
const NOT_SOURCE = /(^|\/)(node_modules|dist|build|out|coverage|vendor|\.venv|venv|site-packages|__pycache__|\.[^/]+)\//;
const CONFIG_FILE = /(^|\/)[^/]*\.config\.[cm]?[jt]s$|(^|\/)\.?eslintrc\.[cm]?js$|(^|\/)(setup|noxfile|fabfile)\.py$/;

/** Whether a listed file is one of the project's own source files: a language the parser knows, not a test, not a dependency. */
export function isSourceFile(relativePath: string): boolean {
  if (NOT_SOURCE.test(relativePath) || CONFIG_FILE.test(relativePath) || isTestRelated(relativePath)) return false;
  return grammarFor(languageIdOf(relativePath)) !== undefined && !/\.d\.[cm]?ts$/.test(relativePath);
}

export interface WorkspaceLocaliseInput {
  readonly executor: TestExecutor;
  /** The baseline's per-test results with `failing` already narrowed to the tests asked about; undefined without a report. */
  readonly plan: PerTestPlan | undefined;
  /** The failing tests' own messages (or the baseline's output as one trace). */
  readonly traces: readonly string[];
  readonly carrier: SourceFile;
  readonly sources: readonly SourceFile[];
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
  readonly logger: Logger;
}

/** Where the request looked and why. */
export interface WorkspaceLocalisation {
  /** Most suspicious first; every function some evidence points into. */
  readonly ranked: readonly RankedFunction[];
  /** What the ranking rests on, as a phrase ("coverage of 1 failing and 3 passing tests, and their stack frames"). */
  readonly evidence: string;
  /** One sentence per failing test: the functions it runs, with scores. */
  readonly explanations: readonly string[];
  readonly coverageRuns: number;
  /** Ochiai per `file:line` and stack weights per file: each function tried ranks its own lines from them. */
  readonly scores: ReadonlyMap<string, number>;
  readonly stack: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Per-test coverage keyed `file:line`, scored; none (with why, logged) when the runner gives none. */
async function coverage(input: WorkspaceLocaliseInput): Promise<{ scores: Map<string, number>; spectra: WorkspaceSpectrum[]; runs: number; phrase?: string }> {
  const { plan, logger } = input;
  if (!plan) {
    logger.info('workspace localisation: no per-test results, so no coverage run; ranking by the failure output\'s stack frames');
    return { scores: new Map(), spectra: [], runs: 0 };
  }
  const started = performance.now();
  const outcome = await workspaceCoverage({ executor: input.executor, plan, carrier: input.carrier, sources: input.sources, slot: input.slot });
  const took = `${plural(outcome.runs, 'coverage run')} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  if ('problem' in outcome) {
    logger.info(`workspace localisation: no coverage (${outcome.problem}; ${took}); ranking by stack frames`);
    return { scores: new Map(), spectra: [], runs: outcome.runs };
  }
  const failing = outcome.spectra.filter((s) => s.failed).length;
  const passing = outcome.spectra.length - failing;
  const passingInSuite = [...verdicts(plan.baseline).values()].filter((o) => o === 'passed').length;
  const phrase = `coverage of ${failing} failing${failing < plan.failing.length ? ` (of ${plan.failing.length})` : ''} and ${passing} passing${passing < passingInSuite ? ` (of ${passingInSuite})` : ''} test${failing + passing === 1 ? '' : 's'}`;
  logger.info(`workspace localisation: ${phrase}, ${took}`);
  return { scores: ochiai<string>(outcome.spectra), spectra: [...outcome.spectra], runs: outcome.runs, phrase };
}

/**
 * Ranks the workspace's source functions by how suspicious the failing tests make them. Never throws on a run's
 * failure: without coverage the stack frames alone rank, and without either the list is empty.
 */
export async function localiseWorkspace(input: WorkspaceLocaliseInput): Promise<WorkspaceLocalisation> {
  const stack = new Map<string, Map<number, number>>();
  for (const source of input.sources) {
    const weights = stackWeights(input.traces, source.relativePath);
    if (weights.size > 0) stack.set(source.relativePath, weights);
  }
  const { scores, spectra, runs, phrase } = await coverage(input);
  const evidenced = new Set([...stack.keys(), ...[...scores.keys()].map((key) => key.slice(0, key.lastIndexOf(':')))]);
  const sources: SourceFunctions[] = [];
  for (const source of input.sources.filter((s) => evidenced.has(s.relativePath))) {
    sources.push({ relativePath: source.relativePath, spans: await functionSpans(languageIdOf(source.relativePath), source.text) });
  }
  const ranked = rankFunctions({ sources, scores, stack });
  const frames = stack.size > 0 ? 'the failing tests\' stack frames' : '';
  const evidence = [phrase, frames].filter(Boolean).join(', and ') || 'no evidence';
  const explanations = whatFailingTestsRun(spectra, ranked);
  if (explanations.length === 0 && ranked.length > 0 && input.plan) {
    explanations.push(`the failing test${input.plan.failing.length === 1 ? '' : 's'} ${input.plan.failing.slice(0, 3).map((id) => `\`${testLabel(id)}\``).join(', ')} point${input.plan.failing.length === 1 ? 's' : ''} at ${ranked.slice(0, 4).map((f) => `${f.relativePath}:${f.name} (${f.score.toFixed(1)})`).join(', ')}`);
  }
  for (const line of explanations) input.logger.info(`workspace localisation: ${line}`);
  return { ranked, evidence, explanations, coverageRuns: runs, scores, stack };
}
