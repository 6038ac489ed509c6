// Estimators against hand-checked values, edge cases, huge n, and a Monte-Carlo check of unbiasedness.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passAtK, passHatK, plugInPassAtK, plugInPassHatK, taskPassAtK } from '../../src/core/statistics/passAtK';
import { seededRandom } from '../../src/core/statistics/random';

const close = (actual: number, expected: number, eps = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);

describe('passAtK', () => {
  const table: Array<[n: number, c: number, k: number, expected: number]> = [
    [10, 3, 1, 0.3],
    [10, 3, 3, 1 - 35 / 120],
    [10, 3, 5, 1 - 21 / 252], // C(7,5)=21, C(10,5)=252 → 0.91666…
    [10, 0, 5, 0],
    [10, 10, 1, 1],
    [10, 6, 5, 1], // n − c = 4 < k
    [5, 1, 5, 1],
    [20, 1, 10, 0.5],
    [4, 2, 2, 1 - 1 / 6],
  ];
  for (const [n, c, k, expected] of table) {
    it(`n=${n} c=${c} k=${k} → ${expected.toFixed(6)}`, () => close(passAtK(n, c, k), expected));
  }
  it('pass@5 for n=10, c=3 is 0.91666…', () => close(passAtK(10, 3, 5), 0.9166666666666666, 1e-12));

  it('stays finite and exact for n up to 10,000', () => {
    // C(10000−c, k)/C(10000, k) with c=1 is (10000−k)/10000.
    close(passAtK(10_000, 1, 100), 100 / 10_000, 1e-12);
    close(passAtK(10_000, 5000, 1), 0.5, 1e-12);
    const v = passAtK(10_000, 37, 500);
    assert.ok(Number.isFinite(v) && v > 0.84 && v < 0.86, String(v));
    for (const k of [1, 10, 1000, 9999, 10_000]) assert.ok(Number.isFinite(passAtK(10_000, 9, k)));
  });

  it('rejects k > n, c > n and non-integers with a clear error', () => {
    assert.throws(() => passAtK(5, 1, 6), /k \(6\) cannot exceed the number of samples n \(5\)/);
    assert.throws(() => passAtK(5, 6, 1), /c \(6 passed\) cannot exceed n \(5/);
    assert.throws(() => passAtK(5, 1, 0), /k must be at least 1/);
    assert.throws(() => passAtK(5.5, 1, 1), /n must be a non-negative integer/);
    assert.throws(() => passHatK(3, 1, 4), RangeError);
  });
});

describe('passHatK', () => {
  // C(c,k)/C(n,k), checked by hand.
  const table: Array<[n: number, c: number, k: number, expected: number]> = [
    [10, 3, 1, 0.3],
    [10, 3, 2, 3 / 45],
    [10, 3, 3, 1 / 120],
    [10, 3, 4, 0],
    [10, 10, 10, 1],
    [10, 5, 5, 1 / 252],
    [6, 4, 2, 6 / 15],
    [8, 0, 1, 0],
  ];
  for (const [n, c, k, expected] of table) {
    it(`n=${n} c=${c} k=${k} → ${expected.toFixed(6)}`, () => close(passHatK(n, c, k), expected));
  }
  it('stays finite for n = 10,000', () => {
    close(passHatK(10_000, 10_000, 10_000), 1);
    const v = passHatK(10_000, 9000, 300);
    assert.ok(Number.isFinite(v) && v > 0 && v < 1e-13, String(v));
  });
});

describe('plug-in estimators', () => {
  it('are the biased 1 − (1 − c/n)^k and (c/n)^k', () => {
    close(plugInPassAtK(10, 3, 5), 1 - 0.7 ** 5);
    close(plugInPassHatK(10, 3, 2), 0.09);
  });
});

describe('Monte-Carlo: unbiased pass@k is unbiased, the plug-in is not', () => {
  it('μ = 0.3, n = 10, k = 5 over 5,000 seeded repeats', () => {
    const random = seededRandom(20260101);
    const repeats = 5000;
    let unbiased = 0;
    let plugIn = 0;
    for (let r = 0; r < repeats; r++) {
      let c = 0;
      for (let i = 0; i < 10; i++) if (random() < 0.3) c++;
      unbiased += passAtK(10, c, 5);
      plugIn += plugInPassAtK(10, c, 5);
    }
    const truth = 1 - 0.7 ** 5; // 0.83193
    assert.ok(Math.abs(unbiased / repeats - truth) < 0.01, `unbiased mean ${unbiased / repeats}`);
    assert.ok(plugIn / repeats < truth - 0.04, `plug-in mean ${plugIn / repeats} should sit clearly below ${truth}`);
    assert.ok(Math.abs(plugIn / repeats - 0.76) < 0.02, `plug-in mean ${plugIn / repeats} ≈ 0.76`);
  });
});

describe('taskPassAtK (what a front end shows for one request)', () => {
  it('gives k = 1 and the asked k, capped at n when fewer samples came', () => {
    const three = taskPassAtK(3, 2, 5);
    assert.equal(three.k, 3);
    assert.equal(three.passAtK['3'], 1);
    assert.equal(three.passHatK['3'], 0);
    assert.ok(Math.abs(three.passAtK['1'] - 2 / 3) < 1e-12);
    assert.deepEqual(taskPassAtK(1, 0, 1), { k: 1, passAtK: { 1: 0 }, passHatK: { 1: 0 } });
  });

  it('is empty when no sample came', () => {
    assert.deepEqual(taskPassAtK(0, 0, 5), { k: 0, passAtK: {}, passHatK: {} });
  });
});
