// Fault localisation's arithmetic: Ochiai against hand-checked values, stack-frame weights, the ranking, the selection's lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localiseFaults, selectionLines } from '../../src/core/localisation/localise';
import type { TestExecutor } from '../../src/core/execution/executor';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';
import type { TestSpectrum } from '../../src/core/localisation/ochiai';
import { ochiai, rankLines, STACK_BOOST, tellsApart } from '../../src/core/localisation/ochiai';
import { withPlugin } from '../../src/core/localisation/pytestCoverage';
import { framesOf, stackWeights } from '../../src/core/localisation/stackFrames';

const spectrum = (failed: boolean, ...lines: number[]): TestSpectrum => ({ failed, lines: new Set(lines) });

/** Two failing tests, two passing ones: every line's failed and passed counts differ. */
const suite = [spectrum(true, 1, 2, 3), spectrum(true, 1, 2, 4), spectrum(false, 1, 2), spectrum(false, 1, 4), spectrum(false, 5)];

describe('ochiai', () => {
  it('scores failed / sqrt(totalFailed × (failed + passed)), hand-checked', () => {
    const scores = ochiai(suite);
    // line: [failed, passed] → value
    const expected: Array<[line: number, value: number]> = [
      [1, 2 / Math.sqrt(2 * (2 + 2))], // 0.7071
      [2, 2 / Math.sqrt(2 * (2 + 1))], // 0.8165
      [3, 1 / Math.sqrt(2 * (1 + 0))], // 0.7071
      [4, 1 / Math.sqrt(2 * (1 + 1))], // 0.5
    ];
    assert.deepEqual([...scores.keys()].sort(), [1, 2, 3, 4], 'line 5 ran in no failing test: no score');
    for (const [line, value] of expected) assert.ok(Math.abs((scores.get(line) ?? NaN) - value) < 1e-12, `line ${line}: ${scores.get(line)} ≠ ${value}`);
    assert.ok(Math.abs((scores.get(2) ?? 0) - 0.816496580927726) < 1e-12);
  });

  it('gives 1 to a line every failing test ran and no passing test did, and less as passing tests run it', () => {
    const scores = ochiai([spectrum(true, 7, 8), spectrum(true, 7, 8), spectrum(false, 8)]);
    assert.equal(scores.get(7), 1);
    assert.ok(Math.abs((scores.get(8) ?? 0) - 2 / Math.sqrt(2 * 3)) < 1e-12);
  });

  it('is empty without a failing test', () => {
    assert.equal(ochiai([spectrum(false, 1, 2)]).size, 0);
    assert.equal(ochiai([]).size, 0);
  });
});

describe('tellsApart', () => {
  it('is false when every line a failing test ran scores the same, whatever the lines no failing test ran', () => {
    // One failing and one passing test running the same straight-line code: every line 1/sqrt(2).
    assert.equal(tellsApart([1, 2, 3, 4], ochiai([spectrum(true, 1, 2, 3), spectrum(false, 1, 2, 3)])), false);
    assert.equal(tellsApart([1, 2, 3, 4], ochiai(suite)), true);
    // Only the selection's lines count: lines 1 and 3 both score 1/sqrt(2).
    assert.equal(tellsApart([1, 3], ochiai(suite)), false);
    assert.equal(tellsApart([], ochiai(suite)), false);
  });
});

describe('rankLines', () => {
  const scores = ochiai(suite);

  it('orders by score, ties top to bottom, and leaves out lines without evidence', () => {
    // 2 (0.82), then 1 and 3 tie (0.71) in line order, then 4 (0.5); 5 and 6 have no evidence.
    assert.deepEqual(rankLines([1, 2, 3, 4, 5, 6], scores, new Map()), [2, 1, 3, 4]);
  });

  it('lets a stack frame break a tie and lift a line over a near one, but not outvote the coverage', () => {
    // 3 gets 0.71 + 0.1 = 0.81: above 1 (0.71), below 2 (0.82).
    assert.deepEqual(rankLines([1, 2, 3, 4], scores, new Map([[3, 1]])), [2, 3, 1, 4]);
    // Half a frame still breaks the tie of 1 and 3 the other way.
    assert.deepEqual(rankLines([1, 2, 3, 4], scores, new Map([[1, 0.5]])), [2, 1, 3, 4]);
    assert.ok(STACK_BOOST < (scores.get(2) ?? 0) - (scores.get(4) ?? 0), 'a frame never lifts the weakest line over the strongest');
  });

  it('ranks by the frames alone without coverage, and only lines of the selection', () => {
    assert.deepEqual(rankLines([10, 11, 12], new Map(), new Map([[12, 1], [11, 0.5], [40, 1]])), [12, 11]);
  });
});

describe('stack frames', () => {
  const js = [
    'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    '    at total (/tmp/vf/p1/src/cart.js:12:11)',
    '    at checkout (/tmp/vf/p1/src/cart.js:30:5)',
    '    at TestContext.<anonymous> (/tmp/vf/p1/test/cart.test.js:9:3)',
  ].join('\n');
  const python = [
    'Traceback (most recent call last):',
    '  File "/tmp/vf/p1/tests/test_cart.py", line 8, in test_total',
    '    self.assertEqual(checkout([1]), 2)',
    '  File "/tmp/vf/p1/cart.py", line 30, in checkout',
    '    return total(items)',
    '  File "/tmp/vf/p1/cart.py", line 12, in total',
    '    return sum(items) / 0',
    'ZeroDivisionError: division by zero',
  ].join('\n');

  it('reads JavaScript traces innermost first and Python tracebacks innermost last', () => {
    assert.deepEqual(framesOf(js, 'src/cart.js'), [12, 30]);
    assert.deepEqual(framesOf(python, 'cart.py'), [12, 30]);
    assert.deepEqual(framesOf('calc.py:3: in add\n    raise ValueError\ntests/test_calc.py:5: in test_add', 'calc.py'), [3]);
  });

  it('weighs 1, 1/2, 1/3 … from the innermost frame, averaged over the failing tests', () => {
    const weights = stackWeights([js, python, 'AssertionError: 3 !== 4\n    at /tmp/vf/p1/test/cart.test.js:5:3'], 'src/cart.js');
    assert.deepEqual([...weights], [[12, 1 / 3], [30, 0.5 / 3]]);
    assert.equal(stackWeights([], 'src/cart.js').size, 0);
  });
});

describe('selectionLines', () => {
  const text = 'a\nbb\nccc\ndddd\n';
  it('lists the lines the selection touches, not the line a selection ends at the start of', () => {
    assert.deepEqual(selectionLines(text, 0, text.indexOf('ccc') + 3), [1, 2, 3]);
    assert.deepEqual(selectionLines(text, text.indexOf('bb'), text.indexOf('ccc')), [2]);
    assert.deepEqual(selectionLines(text, text.indexOf('ccc') + 1, text.indexOf('ccc') + 1), [3]);
  });
});

describe('localiseFaults without per-test results', () => {
  it('ranks by the failure output\'s frames alone, runs nothing, and says so', async () => {
    const text = ['function f(a) {', '  const b = a + 1;', '  return g(b);', '}', 'function g(x) {', '  return x.y.z;', '}', ''].join('\n');
    const output = "TypeError: Cannot read properties of undefined (reading 'z')\n    at g (/tmp/p1/src/f.js:6:14)\n    at f (/tmp/p1/src/f.js:3:10)\n";
    const logs: string[] = [];
    const logger = { trace() {}, info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string | Error) => logs.push(String(m)) };
    const never = new Proxy({}, { get: () => assert.fail('no run without per-test results') }) as TestExecutor;
    const input = { executor: never, plan: undefined, baselineOutput: output, relativePath: 'src/f.js', fileText: text, slot: <T>(run: () => Promise<T>) => run(), logger };
    // Line 6 is the innermost frame, line 3 the next; the punctuation-only lines are never listed.
    assert.deepEqual(await localiseFaults({ ...input, start: 0, end: text.length }), { lines: [6, 3], evidence: 'the stack frames in the failure output' });
    assert.match(logs.join('\n'), /no per-test results, so no coverage run/);
    // A selection the output does not point into leaves the caller's own hints.
    assert.equal(await localiseFaults({ ...input, start: 0, end: text.indexOf('  return g') }), undefined);
  });
});

describe('localiseFaults on a one-line selection', () => {
  it('runs no coverage (nothing to rank among one line) and says so, even with per-test results', async () => {
    const text = ['function f(a) {', '  return a.b.c;', '}', ''].join('\n');
    const logs: string[] = [];
    const logger = { trace() {}, info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string | Error) => logs.push(String(m)) };
    const never = new Proxy({}, { get: () => assert.fail('a one-line selection must start no coverage run') }) as TestExecutor;
    const failed = { id: 'test/f.test.js > f', outcome: 'failed' as const, message: 'TypeError\n    at f (/tmp/p1/src/f.js:2:12)' };
    const plan = { adapter: { name: 'mocha' }, base: 'mocha', baseline: [failed], failing: [failed.id], baselineRan: 1 } as unknown as PerTestPlan;
    const start = text.indexOf('  return');
    const input = { executor: never, plan, baselineOutput: '', relativePath: 'src/f.js', fileText: text, start, end: text.indexOf('\n', start), slot: <T>(run: () => Promise<T>) => run(), logger };
    assert.equal(await localiseFaults(input), undefined);
    assert.match(logs.join('\n'), /the selection is one line, so there is nothing to rank and no coverage run/);
  });
});

describe('the pytest plugin command', () => {
  it('puts the output folder first on PYTHONPATH and loads the plugin', () => {
    assert.equal(
      withPlugin('python3 -m pytest -q', '/t/out', 'src/calc.py'),
      'VERIFIED_FIX_COVERAGE_TARGET=src/calc.py VERIFIED_FIX_COVERAGE_OUT=/t/out PYTHONPATH=/t/out${PYTHONPATH:+:$PYTHONPATH} python3 -m pytest -q -p verified_fix_coverage',
    );
    // The command's own PYTHONPATH would win over one before it: the folder goes into it instead.
    assert.equal(
      withPlugin('PYTHONPATH=src pytest', "/t/it's", 'a.py'),
      "VERIFIED_FIX_COVERAGE_TARGET=a.py VERIFIED_FIX_COVERAGE_OUT='/t/it'\\''s' PYTHONPATH='/t/it'\\''s':src pytest -p verified_fix_coverage",
    );
  });
});
