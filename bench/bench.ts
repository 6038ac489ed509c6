// `npm run bench`: prints timings as ratios against a baseline measured in the same run. Never asserts.
import { computeSessionStats } from '../src/core/sessionStats';
import type { SampleOutcome } from '../src/core/sessionStats';

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function benchStatistics(): void {
  const tasks = Array.from({ length: 500 }, (_, t) => ({
    taskId: `t${t}`,
    outcomes: Array.from({ length: 20 }, (_, i): SampleOutcome => (i < t % 21 ? 'pass' : 'fail')),
  }));
  // Baseline: one pass over every sample (the least any statistic must do).
  const baseline = time(() => {
    for (let r = 0; r < 2000; r++) for (const t of tasks) t.outcomes.filter((o) => o === 'pass');
  });
  const stats = time(() => computeSessionStats(tasks, [1, 5, 10]));
  console.log(`statistics: 500 tasks × 20 samples, k=1,5,10 with 2,000 bootstrap resamples: ${stats.toFixed(1)} ms ` +
    `(${(stats / baseline).toFixed(2)}× a 2,000-fold scan of the samples, ${baseline.toFixed(1)} ms)`);
}

benchStatistics();
