// failingIds and diffAgainstBaseline on hand-written results, including containers (files, hooks, packages).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffAgainstBaseline, failingIds, verdicts } from '../../src/core/testResults/compare';
import type { TestOutcome, TestResult } from '../../src/core/testResults/types';

const r = (outcome: TestOutcome, id: string): TestResult => ({ id, outcome });
const P = (id: string) => r('passed', id);
const F = (id: string) => r('failed', id);
const S = (id: string) => r('skipped', id);

const baseline = [P('a > ok'), F('a > hi'), S('a > later'), F('b > odd'), P('b > fine'), F('c.test.js')];

describe('failingIds', () => {
  it('lists failed ids once, in report order', () => {
    assert.deepEqual(failingIds([F('x'), P('y'), F('z'), F('x'), S('w')]), ['x', 'z']);
    assert.deepEqual(failingIds([]), []);
  });

  it('a repeated id fails if any report of it failed, else passes if any passed', () => {
    assert.deepEqual([...verdicts([P('x'), F('x'), P('x'), S('y'), P('y'), S('z')])], [['x', 'failed'], ['y', 'passed'], ['z', 'skipped']]);
  });
});

describe('diffAgainstBaseline', () => {
  it('the same results: nothing fixed, nothing broken, all still failing', () => {
    const diff = diffAgainstBaseline(baseline, baseline);
    assert.deepEqual(diff, { fixed: [], broke: [], stillFailing: ['a > hi', 'b > odd', 'c.test.js'], missing: [], vanished: [], passed: 2, failed: 3, ranCount: 5 });
  });

  it('a selective run of the failing ids that fixes one, and leaves one out', () => {
    const diff = diffAgainstBaseline(baseline, [P('a > hi'), F('b > odd'), S('a > ok')]);
    assert.deepEqual([diff.fixed, diff.stillFailing, diff.missing, diff.broke], [['a > hi'], ['b > odd'], ['c.test.js'], []]);
    assert.deepEqual(diff.vanished, ['a > ok', 'b > fine'], 'not selected: vanished only means something after a full run');
    assert.deepEqual([diff.passed, diff.failed, diff.ranCount], [1, 1, 2]);
  });

  it('a full run that fixes everything but breaks a passing test and adds a failing one', () => {
    const diff = diffAgainstBaseline(baseline, [F('a > ok'), P('a > hi'), P('a > later'), P('b > odd'), P('b > fine'), P('c.test.js > t'), F('d > new')]);
    assert.deepEqual(diff.fixed, ['a > hi', 'b > odd', 'c.test.js']);
    assert.deepEqual(diff.broke, ['a > ok', 'd > new']);
    assert.deepEqual([diff.stillFailing, diff.missing, diff.vanished], [[], [], []]);
  });

  it('a test skipped now is missing, not fixed', () => {
    assert.deepEqual(diffAgainstBaseline([F('a > t')], [S('a > t')]).missing, ['a > t']);
  });

  it('a failing container counts as fixed once tests inside it ran, whatever their verdicts', () => {
    // The file loads now: its tests ran. One fails: that is a new failure, listed in broke.
    const diff = diffAgainstBaseline([F('c.test.js'), P('x > y')], [P('c.test.js > a'), F('c.test.js > b'), P('x > y')]);
    assert.deepEqual([diff.fixed, diff.broke, diff.missing], [['c.test.js'], ['c.test.js > b'], []]);
    // Only skipped tests inside it, or tests of a file whose name merely starts the same: not fixed.
    assert.deepEqual(diffAgainstBaseline([F('c.test.js')], [S('c.test.js > a'), P('c.test.jsx > a')]).missing, ['c.test.js']);
    // pytest nests with ::
    assert.deepEqual(diffAgainstBaseline([F('tests/test_a.py')], [P('tests/test_a.py::test_x')]).fixed, ['tests/test_a.py']);
    // go: a package that now builds
    assert.deepEqual(diffAgainstBaseline([F('example.com/m/p')], [P('example.com/m/p > TestA')]).fixed, ['example.com/m/p']);
  });

  it("a mocha hook's failure counts as fixed once the tests of its suite ran", () => {
    const hook = 'h.test.js > with hook > "before all" hook';
    assert.deepEqual(diffAgainstBaseline([F(hook)], [P('h.test.js > with hook > a')]).fixed, [hook]);
    assert.deepEqual(diffAgainstBaseline([F(hook)], [F(hook)]).stillFailing, [hook]);
    assert.deepEqual(diffAgainstBaseline([F(hook)], [P('h.test.js > other > a')]).missing, [hook]);
  });

  it('an empty run: every baseline failure missing, every pass vanished', () => {
    const diff = diffAgainstBaseline(baseline, []);
    assert.deepEqual([diff.missing, diff.vanished, diff.ranCount], [['a > hi', 'b > odd', 'c.test.js'], ['a > ok', 'b > fine'], 0]);
  });
});
