// Spectrum-based fault localisation: which lines the failing tests ran and the passing ones did not (Ochiai).

/**
 * One test's spectrum: whether it failed, and the 1-based lines of the file under repair it ran (or, across a
 * workspace, keys naming a file and a line).
 */
export interface TestSpectrum<K = number> {
  readonly failed: boolean;
  readonly lines: ReadonlySet<K>;
  /** The test's id, where the run that recorded it says (pytest's plugin). */
  readonly id?: string;
}

/**
 * Ochiai's suspiciousness of every line some failing test ran:
 * failed(line) / sqrt(totalFailed × (failed(line) + passed(line))), where failed(line) and passed(line) count the
 * failing and passing tests that ran the line. 1 for a line every failing test ran and no passing test did; lines
 * no failing test ran are left out (their score would be 0).
 */
export function ochiai<K = number>(spectra: readonly TestSpectrum<K>[]): Map<K, number> {
  const failed = new Map<K, number>();
  const passed = new Map<K, number>();
  let totalFailed = 0;
  for (const test of spectra) {
    if (test.failed) totalFailed++;
    const counts = test.failed ? failed : passed;
    for (const line of test.lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  const scores = new Map<K, number>();
  for (const [line, f] of failed) scores.set(line, f / Math.sqrt(totalFailed * (f + (passed.get(line) ?? 0))));
  return scores;
}

/**
 * Whether the scores rank any of `lines` above another that a failing test also ran. When every such line scores
 * the same (each test ran them all, or the passing tests ran them as often), an order among them would be line
 * order dressed up as evidence: measured on the repair corpus, the generator's own order does better there.
 */
export function tellsApart(lines: readonly number[], scores: ReadonlyMap<number, number>): boolean {
  const values = lines.filter((line) => scores.has(line)).map((line) => scores.get(line) ?? 0);
  return values.some((value) => Math.abs(value - values[0]) >= 1e-12);
}

/**
 * How much a frame of a failing test's trace adds to a line's score: at most this (the innermost frame of every
 * failing test), so a frame settles ties and near-ties of Ochiai without outvoting the coverage.
 */
export const STACK_BOOST = 0.1;

/**
 * The lines of `lines` (the selection) that have any evidence, most suspicious first: by Ochiai score plus
 * `STACK_BOOST` × stack weight, then by stack weight alone, then top to bottom. Lines without evidence (no failing
 * test ran them, no trace names them) are left out: the generator tries them after every listed one.
 */
export function rankLines(lines: readonly number[], scores: ReadonlyMap<number, number>, stack: ReadonlyMap<number, number>): number[] {
  const keyed = lines
    .map((line) => ({ line, stack: stack.get(line) ?? 0, score: (scores.get(line) ?? 0) + STACK_BOOST * (stack.get(line) ?? 0) }))
    .filter((entry) => entry.score > 0);
  // Scores equal up to rounding (lines of one basic block) are ties, whatever order the sums were made in.
  const same = (a: number, b: number) => Math.abs(a - b) < 1e-12;
  keyed.sort((a, b) => (!same(a.score, b.score) ? b.score - a.score : !same(a.stack, b.stack) ? b.stack - a.stack : a.line - b.line));
  return keyed.map((entry) => entry.line);
}
