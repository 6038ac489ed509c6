// Time limits from the baseline: a candidate's run may take a multiple of what the unmodified code's run took, not the whole test timeout.
import { seconds } from '../base/duration';
import { waitingNote } from '../sandbox/cpuWait';

/** A run may take this many times the baseline's run... */
export const LIMIT_MULTIPLE = 5;
/** ...but never less than this: start-up and a loaded machine cost the same for a short suite as for a long one. */
export const LIMIT_FLOOR_MS = 5000;
/**
 * A strength check's variant runs stop sooner: their limits come from the verified fix's own runs and count only the
 * time a run could run (a loaded machine does not make them time out), and a variant that loops (`i--` in a for
 * loop) would otherwise hold a slot for the whole floor, twice, on a suite whose runs take 0.2 s.
 */
export const VARIANT_LIMIT_FLOOR_MS = 2000;

/** The limit a baseline sets for the request's runs, and the words a timed-out verdict gives it. */
export interface BaselineLimit {
  readonly ms: number;
  /** "5× the baseline's 1.4 s" */
  readonly basis: string;
  /**
   * Set where the limit bounds runs of the failing tests only, with the reason: the command stops at its first
   * failure (`--bail`, `-x`), so the baseline stopped at the bug's first failing test and its time says nothing of
   * the whole suite's. Full runs then get the test timeout.
   */
  readonly failingTestsOnly?: string;
}

/**
 * The limit from a baseline that ran its tests to the end (a printed summary or a per-test report) in `baselineMs`.
 * A baseline that ended early (an import error, a collection error) says nothing about how long the tests take:
 * undefined then, and the request's own test timeout applies. The stage-1 run (the failing tests alone) gets the
 * same limit: it runs a part of the same suite, so it never needs more. A baseline that started `width` test files
 * at once where other runs start fewer counts `width` times: a run of the same tests one file at a time may take that.
 */
export function limitFromBaseline(baselineMs: number, ranToEnd: boolean, width = 1, floorMs = LIMIT_FLOOR_MS): BaselineLimit | undefined {
  if (!ranToEnd || !(baselineMs > 0)) return undefined;
  const ms = Math.max(floorMs, Math.ceil(LIMIT_MULTIPLE * baselineMs * width));
  const wide = width > 1 ? `, ×${width} since it started ${width} test files at once` : '';
  return { ms, basis: ms === floorMs ? `the ${seconds(floorMs)} floor; the baseline took ${seconds(baselineMs)}` : `${LIMIT_MULTIPLE}× the baseline's ${seconds(baselineMs)}${wide}` };
}

/**
 * The limit for one run: the baseline's (when it is below the test timeout, and bounds the run: `full`, a run of the
 * whole suite), or a caller's own shorter one.
 */
export function runLimit(limit: BaselineLimit | undefined, testTimeoutMs: number | undefined, ownMs?: number, full = false): { ms?: number; basis?: string } {
  const applies = limit && !(full && limit.failingTestsOnly) && (testTimeoutMs === undefined || limit.ms < testTimeoutMs) && (ownMs === undefined || limit.ms < ownMs);
  if (applies) return { ms: limit.ms, basis: limit.basis };
  return ownMs !== undefined ? { ms: ownMs } : {};
}

/**
 * A timed-out verdict's reason, saying where its limit came from and, when the run was held up past it by a loaded
 * machine, how long it waited for a CPU: "timed out after 7 s (5× the baseline's 1.4 s)".
 */
export function timeoutReason(ms: number, basis: string, wallMs = ms): string {
  return `timed out after ${seconds(ms)} (${basis})${waitingNote(ms, wallMs)}`;
}
