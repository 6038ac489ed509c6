// Stack-frame evidence: the lines of the file under repair that failing tests' traces name, nearest the failure weighing most.
import { failureLines } from '../mutation/failureLines';

/**
 * Python prints the innermost frame last (`Traceback (most recent call last)`, pytest's `src/calc.py:7: in add` and
 * `calc.py:3: ValueError`); JavaScript, Java and Go print it first.
 */
const INNERMOST_LAST = /Traceback \(most recent call last\)|^\S+\.py:\d+: |File "[^"\n]+\.py", line \d+/m;

/** The lines of `relativePath` a trace names, innermost frame first, each once. */
export function framesOf(trace: string, relativePath: string): number[] {
  const named: number[] = [];
  // Line by line, so a line the trace names twice keeps both places: reversed, its last mention (the innermost) counts.
  for (const text of trace.split('\n')) for (const line of failureLines(text, relativePath)) named.push(line);
  const ordered = INNERMOST_LAST.test(trace) ? named.reverse() : named;
  return [...new Set(ordered)];
}

/**
 * Each line's stack weight in [0, 1]: in every failing test's trace, the innermost frame of the file counts 1, the
 * next 1/2, then 1/3, …; summed over the traces and divided by their number. One trace per failing test (its
 * report's message) where the runner gives them, else the run's output as one trace.
 */
export function stackWeights(traces: readonly string[], relativePath: string): Map<number, number> {
  const weights = new Map<number, number>();
  if (traces.length === 0) return weights;
  for (const trace of traces) {
    framesOf(trace, relativePath).forEach((line, depth) => weights.set(line, (weights.get(line) ?? 0) + 1 / (1 + depth)));
  }
  for (const [line, weight] of weights) weights.set(line, Math.min(1, weight / traces.length));
  return weights;
}
