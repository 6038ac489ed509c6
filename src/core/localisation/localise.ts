// Fault localisation for one request: the selection's lines ranked by the failing tests' coverage (Ochiai) and stack frames.
import type { Logger } from '../base/logger';
import { lineAt, lineStartsOf } from '../mutation/parseCheck';
import type { SiteRanking } from '../contract/provider';
import type { PerTestPlan } from '../verification/stagedVerification';
import type { TestExecutor } from '../execution/executor';
import { verdicts } from '../testResults/compare';
import { coverageSpectra } from './coverageRuns';
import { ochiai, rankLines, tellsApart } from './ochiai';
import { stackWeights } from './stackFrames';

/** What localisation needs once the baseline has run. */
export interface LocaliseInput {
  readonly executor: TestExecutor;
  /** The baseline's per-test results; without them no test can be run alone, and only the output's frames count. */
  readonly plan: PerTestPlan | undefined;
  /** The tail of the baseline's output: the one trace there is without per-test results. */
  readonly baselineOutput: string;
  readonly relativePath: string;
  /** The file as every run of the request sees it. */
  readonly fileText: string;
  readonly start: number;
  readonly end: number;
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
  readonly logger: Logger;
}

/** The 1-based lines [start, end) touches; a selection ending at a line's very start does not take that line. */
export function selectionLines(fileText: string, start: number, end: number): number[] {
  const starts = lineStartsOf(fileText);
  const first = lineAt(starts, start);
  const last = Math.max(first, lineAt(starts, Math.max(start, end - 1)));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Lines of only brackets and separators (`}`, `]);`): they run with their block, and no edit is made on them. */
const PUNCTUATION_ONLY = /^[\s{}()[\];,]*$/;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The failing tests' own traces where the runner reported them, else the whole output as one. */
function tracesOf(input: LocaliseInput): { traces: string[]; perTest: boolean } {
  const failed = input.plan ? input.plan.baseline.filter((test) => test.outcome === 'failed' && test.message) : [];
  return failed.length > 0 ? { traces: failed.map((test) => test.message ?? ''), perTest: true } : { traces: [input.baselineOutput], perTest: false };
}

/** Ochiai's scores from the coverage runs and the phrase for the log; none where coverage cannot be had or tell lines apart. */
async function coverageScores(input: LocaliseInput, plan: PerTestPlan, lines: readonly number[], frames: string): Promise<{ scores: Map<number, number>; coverage?: string }> {
  const started = performance.now();
  const outcome = await coverageSpectra({ executor: input.executor, plan, relativePath: input.relativePath, fileText: input.fileText, slot: input.slot });
  const took = `${plural(outcome.runs, 'coverage run')} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  if ('problem' in outcome) {
    input.logger.info(`fault localisation: no coverage (${outcome.problem}; ${took}); ranking by ${frames}`);
    return { scores: new Map() };
  }
  const scores = ochiai(outcome.spectra);
  const failing = outcome.spectra.filter((test) => test.failed).length;
  const passing = outcome.spectra.length - failing;
  const passingInSuite = [...verdicts(plan.baseline).values()].filter((o) => o === 'passed').length;
  const ofFailing = failing < plan.failing.length ? ` (of ${plan.failing.length})` : '';
  const ofPassing = passing < passingInSuite ? ` (of ${passingInSuite})` : '';
  const coverage = `coverage of ${failing} failing${ofFailing} and ${passing} passing${ofPassing} test${failing + passing === 1 ? '' : 's'}`;
  if (!tellsApart(lines, scores)) {
    input.logger.info(`fault localisation: ${coverage} (${took}) scores every line the failing tests ran alike; ranking by ${frames}`);
    return { scores: new Map() };
  }
  input.logger.info(`fault localisation: ${coverage}, ${took}`);
  return { scores, coverage };
}

/**
 * Ranks the selection's lines, most suspicious first: per-test coverage of the unmodified code (run again in the
 * request's sandbox, see coverageRuns) scored by Ochiai, with the failing tests' stack frames as a boost and
 * tie-breaker; where coverage cannot be had or scores every line alike, the frames alone. undefined when nothing
 * points into the selection. Never throws: a failure is logged and leaves the caller's own hints.
 */
export async function localiseFaults(input: LocaliseInput): Promise<SiteRanking | undefined> {
  try {
    const texts = input.fileText.split('\n');
    const lines = selectionLines(input.fileText, input.start, input.end).filter((line) => !PUNCTUATION_ONLY.test(texts[line - 1] ?? ''));
    const { traces, perTest } = tracesOf(input);
    const stack = stackWeights(traces, input.relativePath);
    const framed = [...stack.keys()].some((line) => lines.includes(line));
    const frames = perTest ? `the stack frames of ${plural(traces.length, 'failing test')}` : 'the stack frames in the failure output';
    if (lines.length <= 1) {
      // Found on real projects (bench:projects): a one-line selection has nothing to rank, yet paid a coverage run per
      // test (9 runs, 21 s, 3.5 suites on a 51-test mocha project) before the first candidate started.
      input.logger.info('fault localisation: the selection is one line, so there is nothing to rank and no coverage run');
      return undefined;
    }
    if (!input.plan) input.logger.info('fault localisation: no per-test results, so no coverage run; ranking by the failure output\'s stack frames');
    const { scores, coverage } = input.plan ? await coverageScores(input, input.plan, lines, frames) : { scores: new Map<number, number>(), coverage: undefined };
    const ranked = rankLines(lines, scores, stack);
    if (ranked.length === 0) {
      input.logger.info('fault localisation: no failing test ran or names a line of the selection');
      return undefined;
    }
    const evidence = coverage ? `${coverage}${framed ? `, and ${frames}` : ''}` : frames;
    return { lines: ranked, evidence };
  } catch (error) {
    input.logger.info(`fault localisation failed (${(error as Error).message}); using the failure output's lines`);
    return undefined;
  }
}
