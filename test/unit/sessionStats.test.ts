// Aggregation over tasks: means, left-out tasks, seeded bootstrap intervals, curves and the sorted grid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passAtK } from '../../src/core/statistics/passAtK';
import { bootstrapCi95, computeSessionStats } from '../../src/core/statistics/sessionStats';
import type { SampleOutcome, TaskSamples } from '../../src/core/statistics/sessionStats';

const task = (taskId: string, n: number, c: number): TaskSamples => ({
  taskId,
  outcomes: Array.from({ length: n }, (_, i): SampleOutcome => (i < c ? 'pass' : 'fail')),
});

describe('computeSessionStats', () => {
  const tasks = [task('a', 10, 3), task('b', 10, 0), task('c', 3, 3), task('d', 10, 10)];

  it('averages per-task estimators and leaves out tasks with n < k', () => {
    const stats = computeSessionStats(tasks, [1, 5]);
    assert.equal(stats.tasks, 4);
    assert.equal(stats.samples, 33);
    const [k1, k5] = stats.byK;
    assert.equal(k1.tasksUsed, 4);
    assert.ok(Math.abs(k1.passAtK - (0.3 + 0 + 1 + 1) / 4) < 1e-12);
    assert.equal(k5.tasksUsed, 3);
    assert.equal(k5.tasksLeftOut, 1);
    assert.ok(Math.abs(k5.passAtK - (passAtK(10, 3, 5) + 0 + 1) / 3) < 1e-12);
    assert.ok(Math.abs(k5.passHatK - (0 + 0 + 1) / 3) < 1e-12);
    assert.ok(k5.plugInPassAtK < k5.passAtK);
  });

  it('gives a reproducible interval that contains the mean', () => {
    const a = computeSessionStats(tasks, [1]).byK[0];
    const b = computeSessionStats(tasks, [1]).byK[0];
    assert.deepEqual(a.ci95, b.ci95);
    assert.ok(a.ci95[0] <= a.passAtK && a.passAtK <= a.ci95[1]);
    assert.ok(a.ci95[0] >= 0 && a.ci95[1] <= 1);
  });

  it('reports NaN, not a crash, when every task has fewer than k samples', () => {
    const s = computeSessionStats([task('x', 2, 1)], [5]).byK[0];
    assert.equal(s.tasksUsed, 0);
    assert.ok(Number.isNaN(s.passAtK));
  });

  it('sorts the grid by c, most passes first, stable on ties', () => {
    const stats = computeSessionStats([task('p', 4, 1), task('q', 4, 3), task('r', 4, 1)], [1]);
    assert.deepEqual(stats.table.map((r) => r.taskId), ['q', 'p', 'r']);
    assert.deepEqual(stats.table[0].outcomes, ['pass', 'pass', 'pass', 'fail']);
  });

  it('draws curves for k = 1..max n, pass@k rising and pass^k falling', () => {
    const stats = computeSessionStats([task('a', 10, 3), task('b', 10, 6)], [1]);
    assert.equal(stats.curves.length, 10);
    for (let i = 1; i < stats.curves.length; i++) {
      assert.ok(stats.curves[i].passAtK >= stats.curves[i - 1].passAtK);
      assert.ok(stats.curves[i].passHatK <= stats.curves[i - 1].passHatK);
    }
  });
});

describe('bootstrapCi95', () => {
  it('is narrow for constant data and tight around the mean for large samples', () => {
    assert.deepEqual(bootstrapCi95([0.5, 0.5, 0.5]), [0.5, 0.5]);
    const values = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const [lo, hi] = bootstrapCi95(values);
    assert.ok(lo < 0.25 && hi > 0.25 && hi - lo < 0.12, `[${lo}, ${hi}]`);
  });
});
