// The candidate pool with tables and no processes: duplicates, waiting duplicates, invalid samples, ranking, statistics.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CandidatePool, normalise } from '../../src/core/engine/candidatePool';
import type { Verdict } from '../../src/core/contract/fixRequest';

const text = 'function f(a, b) {\n  return a < b;\n}\n';
const start = text.indexOf('return');
const end = text.indexOf(';') + 1;
const pool = (requiredRuns = 1) => new CandidatePool({ relativePath: 'f.js', originalText: text, start, end, requiredRuns });
const run = (status: Verdict['status']): Verdict => ({ status, exitCode: status === 'pass' ? 0 : 1, durationMs: 5, output: '', stdout: '', stderr: '' });

describe('normalise', () => {
  const same: Array<[string, string]> = [
    ['return a <= b;', 'return a <= b;\r\n'],
    ['return a <= b;', '\n\nreturn a <= b;   \n'],
  ];
  for (const [a, b] of same) it(`treats ${JSON.stringify(b)} as ${JSON.stringify(a)}`, () => assert.equal(normalise(a), normalise(b)));
  const different: Array<[string, string]> = [
    ['return a <= b;', '  return a <= b;'],
    ['x = "a  b"', 'x = "a b"'],
  ];
  for (const [a, b] of different) it(`keeps ${JSON.stringify(a)} and ${JSON.stringify(b)} apart`, () => assert.notEqual(normalise(a), normalise(b)));
});

describe('CandidatePool', () => {
  it('runs the first of a program; a duplicate arriving later shares its runs at once', () => {
    const p = pool();
    const first = { index: 0, replacement: 'return a <= b;' };
    assert.deepEqual(p.add(first), { duplicateOf: null, run: true, finished: [] });
    const done = p.complete(first, [run('pass')], {});
    assert.equal(done.length, 1);
    const dup = p.add({ index: 1, replacement: 'return a <= b;\n' });
    assert.equal(dup.run, false);
    assert.equal(dup.duplicateOf, 0);
    assert.equal(dup.finished[0].verdict.status, 'pass');
    assert.equal(dup.finished[0].verified, true);
  });

  it('finishes duplicates that arrived while the original ran, in arrival order, with its evidence', () => {
    const p = pool();
    const first = { index: 0, replacement: 'return a <= b;' };
    p.add(first);
    for (const index of [1, 2, 3]) assert.deepEqual(p.add({ index, replacement: 'return a <= b;' }).finished, []);
    const tests = { fixed: ['t > x'], broke: [], stillFailing: [], passed: 3, failed: 0 };
    const done = p.complete(first, [run('pass')], { stage: 'full', tests });
    assert.deepEqual(done.map((c) => c.index), [0, 1, 2, 3]);
    assert.ok(done.every((c) => c.tests === tests && c.stage === 'full'));
    assert.deepEqual(p.complete(first, [run('pass')], {}).length, 1, 'the waiting list is cleared');
  });

  it('counts an invalid sample as a failed sample and never ranks it', () => {
    const p = pool();
    const invalid = p.addInvalid({ index: 0 }, 'unusable answer: no code');
    assert.equal(invalid.verdict.status, 'fail');
    assert.equal(invalid.diff, '');
    assert.deepEqual(p.ranking(), []);
    assert.deepEqual(p.statistics(), { samples: 1, passed: 0 });
  });

  it('verifies only with every required run passing; a mixed record is flaky', () => {
    const p = pool(2);
    const table: Array<[Verdict['status'][], boolean, boolean]> = [
      [['pass', 'pass'], true, false],
      [['pass', 'fail'], false, true],
      [['pass'], false, false],
      [['fail'], false, false],
    ];
    table.forEach(([statuses, verified, flaky], index) => {
      const sample = { index, replacement: `return a <= b + ${index};` };
      p.add(sample);
      const [c] = p.complete(sample, statuses.map(run), {});
      assert.equal(c.verified, verified, statuses.join());
      assert.equal(c.flaky, flaky, statuses.join());
    });
  });

  it('ranks the smallest change first, then fewer characters, then arrival; duplicates left out', () => {
    const p = pool();
    const samples = [
      { index: 0, replacement: 'if (a) {}\n  return a <= b;' },
      { index: 1, replacement: 'return a <= b + 0;' },
      { index: 2, replacement: 'return a <= b;' },
      { index: 3, replacement: 'return a <= b;' },
    ];
    for (const s of samples) {
      if (p.add(s).run) p.complete(s, [run('pass')], {});
    }
    assert.deepEqual(p.ranking(), [2, 1, 0]);
  });

  it('counts n and c over first runs, for the front ends to compute pass@k from', () => {
    const p = pool();
    ['pass', 'fail', 'pass'].forEach((status, index) => {
      const s = { index, replacement: `return ${index};` };
      p.add(s);
      p.complete(s, [run(status as Verdict['status'])], {});
    });
    assert.deepEqual(p.statistics(), { samples: 3, passed: 2 });
  });
});
