// Workspace-level localisation's ranking: each source function scored by its most suspicious own line (Ochiai over
// `file:line`, plus the stack frames' boost), and the sentences that say which failing test ran what.
import { splitId } from '../testResults/ids';
import type { FunctionSpan } from './functionSpans';
import { functionAt } from './functionSpans';
import { STACK_BOOST } from './ochiai';
import { lineKey } from './workspaceCoverage';
import type { WorkspaceSpectrum } from './workspaceCoverage';

/** A source file's functions. */
export interface SourceFunctions {
  readonly relativePath: string;
  readonly spans: readonly FunctionSpan[];
}

/** One function with evidence, as the request reports it. */
export interface RankedFunction {
  readonly relativePath: string;
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Its best line's Ochiai score plus STACK_BOOST × that line's stack weight (0–1.1). */
  readonly score: number;
  /** Its best line's Ochiai score alone (0 without coverage). */
  readonly coverage: number;
  /** The highest stack weight of its lines (0 when no trace names them). */
  readonly stack: number;
}

export interface RankInput {
  readonly sources: readonly SourceFunctions[];
  /** Ochiai per `file:line`; empty without coverage. */
  readonly scores: ReadonlyMap<string, number>;
  /** Stack weight per line, per file. */
  readonly stack: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-12;

/**
 * Every function some evidence points into, most suspicious first: a line counts for its innermost function only
 * (a callback's bug is the callback's). Ties go to the higher stack weight, then to the smaller function (fewer
 * lines to mutate before the bug), then top to bottom.
 */
export function rankFunctions({ sources, scores, stack }: RankInput): RankedFunction[] {
  const best = new Map<FunctionSpan, { score: number; coverage: number; stack: number; file: string }>();
  const consider = (file: string, spans: readonly FunctionSpan[], line: number) => {
    const span = functionAt(spans, line);
    if (!span) return;
    const coverage = scores.get(lineKey(file, line)) ?? 0;
    const weight = stack.get(file)?.get(line) ?? 0;
    const score = coverage + STACK_BOOST * weight;
    if (score <= 0) return;
    const seen = best.get(span);
    if (!seen) best.set(span, { score, coverage, stack: weight, file });
    else best.set(span, { score: Math.max(seen.score, score), coverage: Math.max(seen.coverage, coverage), stack: Math.max(seen.stack, weight), file });
  };
  for (const { relativePath, spans } of sources) {
    const lines = new Set<number>([...(stack.get(relativePath)?.keys() ?? [])]);
    for (const key of scores.keys()) if (key.startsWith(`${relativePath}:`)) lines.add(Number(key.slice(relativePath.length + 1)));
    for (const line of lines) consider(relativePath, spans, line);
  }
  const ranked = [...best].map(([span, e]): RankedFunction => ({
    relativePath: e.file, name: span.name, startLine: span.startLine, endLine: span.endLine, score: e.score, coverage: e.coverage, stack: e.stack,
  }));
  const size = (f: RankedFunction) => f.endLine - f.startLine;
  ranked.sort((a, b) =>
    !same(a.score, b.score) ? b.score - a.score
      : !same(a.stack, b.stack) ? b.stack - a.stack
        : size(a) !== size(b) ? size(a) - size(b)
          : a.relativePath !== b.relativePath ? (a.relativePath < b.relativePath ? -1 : 1) : a.startLine - b.startLine,
  );
  return ranked;
}

/** A test's name for people: the part after its file. */
export function testLabel(id: string): string {
  const { scope, names } = splitId(id);
  return names || scope;
}

/** `src/range.js:inRange (score 1.0)` */
export const functionLabel = (f: RankedFunction, withWord = false) => `${f.relativePath}:${f.name} (${withWord ? 'score ' : ''}${f.score.toFixed(1)})`;

/**
 * "the failing test `clamp keeps the upper bound` runs src/range.js:inRange (score 1.0), src/util.js:toInt (0.4)",
 * once per failing test whose coverage was recorded (the first few), naming the ranked functions it ran.
 */
export function whatFailingTestsRun(spectra: readonly WorkspaceSpectrum[], ranked: readonly RankedFunction[], most = 3): string[] {
  const out: string[] = [];
  for (const test of spectra.filter((s) => s.failed).slice(0, most)) {
    const ran = ranked.filter((f) => {
      for (let line = f.startLine; line <= f.endLine; line++) if (test.lines.has(lineKey(f.relativePath, line))) return true;
      return false;
    });
    if (ran.length === 0) continue;
    out.push(`the failing test \`${testLabel(test.id)}\` runs ${ran.slice(0, 4).map((f, i) => functionLabel(f, i === 0)).join(', ')}`);
  }
  return out;
}
