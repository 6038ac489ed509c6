// Small buggy JavaScript functions, one per common one-token bug class, each with the tests that expose it: the
// mutation order's yardstick (test/unit/mutationPrior.test.ts, bench/mutationPriorBench.ts). Written for this project.

/** One buggy function: its file, the function's lines, the fix, and tests as `[expression, expected JSON]`. */
export interface BugCase {
  readonly name: string;
  /** The bug class, as the literature on one-token bugs names it. */
  readonly bugClass: string;
  readonly text: string;
  /** 1-based inclusive lines of the function (the selection a workspace request makes). */
  readonly lines: readonly [number, number];
  /** The buggy code and its fix on `fixLine`: the mutant that turns the one into the other is the right fix. */
  readonly fixLine: number;
  readonly bug: string;
  readonly fix: string;
  readonly tests: ReadonlyArray<readonly [string, string]>;
}

const js = (...l: string[]): string => l.join('\n') + '\n';

export const BUG_CASES: readonly BugCase[] = [
  {
    name: 'clamp', bugClass: 'wrong variable', fixLine: 7, bug: 'return low;', fix: 'return high;', lines: [1, 10],
    text: js(
      'function clamp(value, low, high) {',
      '  const v = Math.trunc(value);',
      '  if (v < low) {',
      '    return low;',
      '  }',
      '  if (v > high) {',
      '    return low;',
      '  }',
      '  return v;',
      '}',
    ),
    tests: [['clamp(3, 0, 5)', '3'], ['clamp(-2, 0, 5)', '0'], ['clamp(9, 0, 5)', '5']],
  },
  {
    name: 'grade', bugClass: 'boundary', fixLine: 2, bug: 'score > 90', fix: 'score >= 90', lines: [1, 5],
    text: js(
      'function grade(score) {',
      "  if (score > 90) return 'A';",
      "  if (score >= 80) return 'B';",
      "  return 'C';",
      '}',
    ),
    tests: [['grade(95)', '"A"'], ['grade(90)', '"A"'], ['grade(85)', '"B"'], ['grade(50)', '"C"']],
  },
  {
    name: 'indexOfMax', bugClass: 'off-by-one', fixLine: 3, bug: 'i < xs.length - 1', fix: 'i <= xs.length - 1', lines: [1, 7],
    text: js(
      'function indexOfMax(xs) {',
      '  let best = 0;',
      '  for (let i = 1; i < xs.length - 1; i++) {',
      '    if (xs[i] > xs[best]) best = i;',
      '  }',
      '  return best;',
      '}',
    ),
    tests: [['indexOfMax([1, 3, 2])', '1'], ['indexOfMax([4])', '0'], ['indexOfMax([1, 2, 3])', '2']],
  },
  {
    name: 'adult', bugClass: 'logical operator', fixLine: 4, bug: '||', fix: '&&', lines: [1, 5],
    text: js(
      'function adult(person) {',
      '  if (!person) return false;',
      '  const age = Number(person.age);',
      '  return age >= 18 || age < 130;',
      '}',
    ),
    tests: [['adult({ age: 30 })', 'true'], ['adult(null)', 'false'], ['adult({ age: 12 })', 'false'], ['adult({ age: 200 })', 'false']],
  },
  {
    name: 'firstNew', bugClass: 'negation', fixLine: 3, bug: 'if (seen.has(x))', fix: 'if (!seen.has(x))', lines: [1, 6],
    text: js(
      'function firstNew(xs, seen) {',
      '  for (const x of xs) {',
      '    if (seen.has(x)) return x;',
      '  }',
      '  return null;',
      '}',
    ),
    tests: [['firstNew([1, 2, 3], new Set([1]))', '2'], ['firstNew([], new Set())', 'null'], ['firstNew([5], new Set([5]))', 'null']],
  },
  {
    name: 'range', bugClass: 'integer literal', fixLine: 3, bug: 'let i = 1', fix: 'let i = 0', lines: [1, 5],
    text: js(
      'function range(n) {',
      '  const out = [];',
      '  for (let i = 1; i < n; i++) out.push(i);',
      '  return out;',
      '}',
    ),
    tests: [['range(0)', '[]'], ['range(3)', '[0,1,2]']],
  },
  {
    name: 'mean', bugClass: 'arithmetic operator', fixLine: 5, bug: 'sum * xs.length', fix: 'sum / xs.length', lines: [1, 6],
    text: js(
      'function mean(xs) {',
      '  if (xs.length === 0) return 0;',
      '  let sum = 0;',
      '  for (const x of xs) sum += x;',
      '  return sum * xs.length;',
      '}',
    ),
    tests: [['mean([])', '0'], ['mean([4])', '4'], ['mean([1, 2, 3])', '2']],
  },
  {
    name: 'area', bugClass: 'wrong property', fixLine: 4, bug: 'box.bottom - box.left', fix: 'box.bottom - box.top', lines: [1, 6],
    text: js(
      'function area(box) {',
      '  if (box.top > box.bottom) return 0;',
      '  const w = box.right - box.left;',
      '  const h = box.bottom - box.left;',
      '  return w * h;',
      '}',
    ),
    tests: [['area({ left: 0, top: 0, right: 2, bottom: 3 })', '6'], ['area({ left: 0, top: 5, right: 1, bottom: 1 })', '0'], ['area({ left: 1, top: 2, right: 4, bottom: 6 })', '12']],
  },
  {
    name: 'atLeast', bugClass: 'wrong function', fixLine: 3, bug: 'Math.min', fix: 'Math.max', lines: [1, 4],
    text: js(
      'function atLeast(x, floor) {',
      "  if (typeof x !== 'number') return floor;",
      '  return Math.min(x, floor);',
      '}',
    ),
    tests: [["atLeast('a', 2)", '2'], ['atLeast(5, 2)', '5'], ['atLeast(1, 2)', '2']],
  },
  {
    name: 'lastN', bugClass: 'off-by-one', fixLine: 3, bug: 'xs.length - n + 1', fix: 'xs.length - n', lines: [1, 5],
    text: js(
      'function lastN(xs, n) {',
      '  if (n <= 0) return [];',
      '  const from = Math.max(0, xs.length - n + 1);',
      '  return xs.slice(from);',
      '}',
    ),
    tests: [['lastN([1, 2, 3], 0)', '[]'], ['lastN([1, 2, 3], 5)', '[1,2,3]'], ['lastN([1, 2, 3], 2)', '[2,3]']],
  },
  {
    name: 'ratio', bugClass: 'swapped arguments', fixLine: 5, bug: 'divide(whole, part)', fix: 'divide(part, whole)', lines: [4, 7],
    text: js(
      'function divide(a, b) {',
      '  return b === 0 ? 0 : a / b;',
      '}',
      'function percent(part, whole) {',
      '  const r = divide(whole, part);',
      '  return Math.round(r * 100);',
      '}',
    ),
    tests: [['percent(1, 4)', '25'], ['percent(0, 0)', '0'], ['percent(3, 4)', '75']],
  },
  {
    name: 'countAbove', bugClass: 'wrong variable', fixLine: 4, bug: 'x > n', fix: 'x > limit', lines: [1, 7],
    text: js(
      'function countAbove(xs, limit) {',
      '  let n = 0;',
      '  for (const x of xs) {',
      '    if (x > n) n++;',
      '  }',
      '  return n;',
      '}',
    ),
    tests: [['countAbove([], 3)', '0'], ['countAbove([5, 6], 3)', '2'], ['countAbove([1, 4, 2, 9], 3)', '2']],
  },
];
