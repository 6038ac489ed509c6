// A workspace-level request: localise from the failing tests, then an ordinary request on each top-ranked function in
// turn (likeliest first) within the one sample budget, until one has a verified fix. Each function tried is a task.
import { lineRangeToOffsets } from '../base/textRange';
import type { FixEvent, FixResult } from '../contract/fixRequest';
import type { RankedFunction } from '../localisation/rankFunctions';
import { rankLines, tellsApart } from '../localisation/ochiai';
import { selectionLines } from '../localisation/localise';
import type { ReusedBaseline } from './baseline';
import { runFix } from './runFix';
import { localiseRequest } from './workspaceLocalisation';
import type { LocalisedWorkspace, WorkspaceFixRequest } from './workspaceLocalisation';

/** Functions tried at most unless the request says otherwise: past the third the evidence is rarely worth a run. */
export const DEFAULT_MAX_FUNCTIONS = 3;

/**
 * The samples the first of `scores` (this function's, then those still to try after it) gets of `remaining`: shares
 * follow the scores, so the likeliest function gets the most of what is left; the last one gets all of it. The
 * extension's localised flow uses the same rule, so both spend one budget alike.
 */
export function sampleShare(remaining: number, scores: readonly number[]): number {
  if (scores.length <= 1) return remaining;
  const rest = scores.reduce((sum, score) => sum + score, 0);
  // All-zero scores (no evidence at all) share evenly rather than dividing by zero.
  const part = rest > 0 ? (remaining * scores[0]) / rest : remaining / scores.length;
  return Math.max(1, Math.min(remaining, Math.round(part)));
}

/**
 * The localisation's baseline and the function's lines as its coverage ranked them: a try runs neither the tests
 * on the unmodified code nor the coverage runs again (they would give the same answer on the same code).
 */
export function reusedFor(localisation: LocalisedWorkspace, fn: RankedFunction, text: string, start: number, end: number): ReusedBaseline {
  const lines = selectionLines(text, start, end).filter((line) => !/^[\s{}()[\];,]*$/.test(text.split('\n')[line - 1] ?? ''));
  const scores = new Map(lines.map((line) => [line, localisation.scores.get(`${fn.relativePath}:${line}`) ?? 0] as const).filter(([, score]) => score > 0));
  const ranked = rankLines(lines, tellsApart(lines, scores) ? scores : new Map(), localisation.stack.get(fn.relativePath) ?? new Map());
  const ranking = ranked.length > 0 ? { lines: ranked, evidence: `${localisation.evidence} (from the workspace localisation)` } : undefined;
  return { ...localisation.baseline, ...(ranking ? { ranking } : {}) };
}

/** A function the request tried, with what came of it. */
export interface TriedFunction extends RankedFunction {
  /** Samples it got (its share of the budget, or fewer when its provider ran out) and how many passed. */
  readonly samples: number;
  readonly passed: number;
  readonly verified: boolean;
  /** Its own request's result: every sample it got (the results file and `--json` carry them all). */
  readonly result: FixResult;
}

export interface WorkspaceFixResult {
  readonly localisation: LocalisedWorkspace;
  readonly tried: readonly TriedFunction[];
  /** The function where a fix was verified (the task the statistics count), if any. */
  readonly found?: TriedFunction;
  /** That function's request (or the last one tried when none found a fix); absent when no function could be tried. */
  readonly result?: FixResult;
  /** 1-based inclusive lines of `result`'s range. */
  readonly lines?: readonly [number, number];
  readonly durationMs: number;
}

/**
 * Runs a workspace-level request. `onLocalised` hears where the request will look before any candidate runs;
 * `onEvent` hears each function's request as an ordinary one (its `started` once, `done` only for the result).
 */
export async function runWorkspaceFix(
  request: WorkspaceFixRequest,
  onEvent: (event: FixEvent) => void = () => undefined,
  onLocalised: (localisation: LocalisedWorkspace) => void = () => undefined,
): Promise<WorkspaceFixResult> {
  const started = performance.now();
  const localisation = await localiseRequest(request);
  onLocalised(localisation);
  const logger = request.logger;
  const chosen = localisation.ranked.slice(0, Math.max(1, request.maxFunctions ?? DEFAULT_MAX_FUNCTIONS));
  const tried: TriedFunction[] = [];
  let remaining = request.samples;
  let last: { result: FixResult; lines: [number, number] } | undefined;
  let announced = false;
  for (const [i, fn] of chosen.entries()) {
    const timeLeft = request.totalTimeoutMs - (performance.now() - started);
    if (request.signal?.aborted || remaining <= 0 || timeLeft < 1000) break;
    const share = sampleShare(remaining, chosen.slice(i).map((f) => f.score));
    const text = localisation.sources.get(fn.relativePath) ?? '';
    const { start, end } = lineRangeToOffsets(text, fn.startLine, fn.endLine);
    logger?.info(`trying ${fn.relativePath}:${fn.name} (lines ${fn.startLine}–${fn.endLine}, score ${fn.score.toFixed(2)}) with ${share} of ${remaining} remaining samples`);
    const result = await runFix({ ...request, relativePath: fn.relativePath, start, end, samples: share, totalTimeoutMs: Math.round(timeLeft) }, (event) => {
      if (event.type === 'started' && announced) return;
      if (event.type === 'done') return;
      announced ||= event.type === 'started';
      onEvent(event);
    }, reusedFor(localisation, fn, text, start, end));
    const entry: TriedFunction = { ...fn, samples: result.samples, passed: result.passed, verified: result.verified.length > 0, result };
    tried.push(entry);
    last = { result, lines: [fn.startLine, fn.endLine] };
    // A share the provider could not fill (it ran out of mutants) is left for the next function.
    remaining -= result.samples;
    if (entry.verified || result.stoppedEarly?.kind === 'cancelled' || result.stoppedEarly?.kind === 'baselineTimeout') break;
  }
  const found = tried.find((t) => t.verified);
  if (last) onEvent({ type: 'done', result: last.result });
  return { localisation, tried, ...(found ? { found } : {}), ...(last ? { result: last.result, lines: last.lines } : {}), durationMs: Math.round(performance.now() - started) };
}
