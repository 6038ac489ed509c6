// reachFromCoverage and reachScope on V8 coverage files written by hand: which tests reach the selection, and when none can be told; worthSelecting: when selecting them is not worth it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeAdapter } from '../../src/core/testResults/node';
import type { TestResult } from '../../src/core/testResults/types';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';
import { reachFromCoverage } from '../../src/core/localisation/reachingTests';
import { reachScope } from '../../src/core/verification/reachScope';
import { worthSelecting } from '../../src/core/engine/baselineCoverage';

const lib = 'function clamp(x, lo, hi) {\n  if (x > hi) return lo;\n  return x;\n}\nfunction other() { return 1; }\nmodule.exports = { clamp, other };\n';
const fnStart = 0;
const fnEnd = lib.indexOf('}\n') + 1;
const start = lib.indexOf('  if');
const end = lib.indexOf('  return x;');
const otherStart = lib.indexOf('function other');

/** One process's coverage file: the test file it ran and, when it loaded lib.js, whether clamp ran. */
function report(testFile: string, clampCount: number | undefined, extra: unknown[] = []): unknown {
  const libScript = clampCount === undefined ? [] : [{
    url: 'file:///w/src/lib.js',
    functions: [
      { ranges: [{ startOffset: 0, endOffset: lib.length, count: 1 }] },
      { ranges: [{ startOffset: fnStart, endOffset: fnEnd, count: clampCount }] },
      { ranges: [{ startOffset: otherStart, endOffset: otherStart + 30, count: 1 }] },
    ],
  }];
  const own = testFile ? [{ url: `file:///w/${testFile}`, functions: [{ ranges: [{ startOffset: 0, endOffset: 10, count: 1 }] }] }] : [];
  return { result: [...own, ...libScript, ...extra] };
}

const baseline: TestResult[] = [
  { id: 'test/a.test.js > caps', outcome: 'failed' },
  { id: 'test/a.test.js > keeps', outcome: 'passed' },
  { id: 'test/b.test.js > loads only', outcome: 'passed' },
  { id: 'test/c.test.js > plain', outcome: 'passed' },
];
const plan: PerTestPlan = { adapter: nodeAdapter, base: 'node --test', baseline, failing: ['test/a.test.js > caps'], baselineRan: 4 };

describe('reachFromCoverage', () => {
  it('keeps the tests of the files whose process ran the selected function', () => {
    const reach = reachFromCoverage([report('test/a.test.js', 2), report('test/b.test.js', 0), report('test/c.test.js', undefined), report('', undefined)], plan, 'src/lib.js', lib, start, end);
    assert.ok('ids' in reach, JSON.stringify(reach));
    assert.deepEqual(reach.ids, ['test/a.test.js > caps', 'test/a.test.js > keeps']);
    assert.equal(reach.total, 4);
  });

  it('tells nothing when a process that ran the function loaded no test file (a child process)', () => {
    const reach = reachFromCoverage([report('test/a.test.js', 1), report('test/b.test.js', 0), report('test/c.test.js', undefined), report('', 1)], plan, 'src/lib.js', lib, start, end);
    assert.match('problem' in reach ? reach.problem : '', /loaded no test file ran the selected function/);
  });

  it('tells nothing when a test file left no coverage', () => {
    const reach = reachFromCoverage([report('test/a.test.js', 1), report('test/b.test.js', 0)], plan, 'src/lib.js', lib, start, end);
    assert.match('problem' in reach ? reach.problem : '', /no coverage came from test\/c\.test\.js/);
  });

  it('tells nothing for a selection outside a function body, or when every file reaches', () => {
    const all = [report('test/a.test.js', 1), report('test/b.test.js', 0), report('test/c.test.js', undefined)];
    const top = reachFromCoverage(all, plan, 'src/lib.js', lib, lib.indexOf('module.exports'), lib.length - 1);
    assert.match('problem' in top ? top.problem : '', /not inside the body of a function/);
    const header = reachFromCoverage(all, plan, 'src/lib.js', lib, 0, end);
    assert.match('problem' in header ? header.problem : '', /not inside the body/);
    const every = reachFromCoverage([report('test/a.test.js', 1), report('test/b.test.js', 1), report('test/c.test.js', 3)], plan, 'src/lib.js', lib, start, end);
    assert.match('problem' in every ? every.problem : '', /every test file's process ran/);
  });

  it('tells nothing when a process ran the file transformed', () => {
    const bundled = { result: [{ url: 'file:///w/test/c.test.js', functions: [] }, { url: 'file:///w/src/lib.js', functions: [{ ranges: [{ startOffset: 0, endOffset: lib.length + 40, count: 1 }] }] }] };
    const reach = reachFromCoverage([report('test/a.test.js', 1), report('test/b.test.js', 0), bundled], plan, 'src/lib.js', lib, start, end);
    assert.match('problem' in reach ? reach.problem : '', /transformed/);
  });
});

describe('reachScope', () => {
  const reach = { ids: ['test/a.test.js > caps', 'test/a.test.js > keeps'], total: 4, functionStart: fnStart, functionEnd: fnEnd };
  const edit = (replacement: string) => ({ languageId: 'javascript', originalText: lib, start, end, replacement });

  it('narrows a body edit to the reaching tests, judged against their part of the baseline', () => {
    const scoped = reachScope(reach, plan, edit('  if (x > hi) return hi;\n'));
    assert.ok('scope' in scoped);
    assert.equal(scoped.scope.ran, 2);
    assert.equal(scoped.scope.cannotReach, 2);
    assert.deepEqual(scoped.scope.plan.baseline.map((t) => t.id), ['test/a.test.js > caps', 'test/a.test.js > keeps']);
  });

  it('runs the whole command for an edit that leaves the body', () => {
    const scoped = reachScope(reach, plan, edit('  return hi;\n}\nfunction clamp2() {\n'));
    assert.match('problem' in scoped ? scoped.problem : '', /outside the selected function's body/);
  });
});

describe('worthSelecting', () => {
  const of = (reaching: number, total: number) => ({ ids: Array.from({ length: reaching }, (_, i) => `t${i}`), total, functionStart: 0, functionEnd: 10 });
  it('keeps a reach below three quarters of the suite', () => {
    assert.deepEqual(worthSelecting(of(8, 140)), of(8, 140));
    assert.deepEqual(worthSelecting(of(74, 100)), of(74, 100));
  });
  it('gives most of the suite up, in words: the survivors would run about a full suite and the top fix a second one', () => {
    assert.deepEqual(worthSelecting(of(132, 140)), { problem: '132 of 140 tests reach the change, most of the suite: running only those would save little and cost the top-ranked fix a second, full run' });
    assert.ok('problem' in worthSelecting(of(75, 100)));
  });
  it('passes a problem on as it is', () => {
    assert.deepEqual(worthSelecting({ problem: 'x' }), { problem: 'x' });
  });
});
