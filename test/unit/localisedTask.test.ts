// The localised flow's tasks: the panel names the function and how it was found; the tries share one sample budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sampleShare } from '../../src/core/engine/workspaceFix';
import { localisedFromTry, nextTry, tryShare } from '../../src/host/model/localisedTask';
import type { LocalisedTry } from '../../src/host/model/localisedTask';
import type { StoredTask } from '../../src/host/model/sessionSchema';
import { loadSession } from '../../src/host/model/sessionSchema';
import { buildSnapshot } from '../../src/host/model/sessionSnapshot';

function task(id: string, extra: Partial<StoredTask> = {}): StoredTask {
  return {
    id, uri: 'file:///ws/src/range.js', file: 'src/range.js', startLine: 3, endLine: 9, start: 10, end: 200, originalHash: 'ab',
    startedAt: 1_700_000_000_000, durationMs: 4200, outcomes: ['fail', 'pass'], verified: [], baselinePassed: false, lost: 0, ...extra,
  };
}

const candidate = { index: 2, replacement: 'x', runsPassed: 2, runs: 2, durationMs: 1400, changeSize: 2 };
const clamp = { functionName: 'clamp', score: 1, failingTests: ['test/range.test.js > clamp keeps the upper bound'] };

describe('a localised task in the panel', () => {
  it('labels the row with the function and says on hover it was found by fault localisation from the failing test', () => {
    const s = buildSnapshot([task('a', { localisedFrom: clamp, verified: [candidate] }), task('b')], 1);
    const row = s.table.find((t) => t.taskId === 'a');
    assert.equal(row?.label, 'range.js:clamp');
    assert.equal(row?.localised, 'fix found in clamp by fault localisation from the failing test `clamp keeps the upper bound` (score 1.00)');
    // A request on selected lines is labelled as before, with nothing about localisation.
    const plain = s.table.find((t) => t.taskId === 'b');
    assert.equal(plain?.label, 'range.js:3–9');
    assert.equal(plain?.localised, undefined);
  });

  it('says "tried" when no fix was verified there, and numbers a second try of the same function', () => {
    const s = buildSnapshot([task('a', { localisedFrom: { ...clamp, failingTests: [] } }), task('b', { localisedFrom: clamp, startedAt: 1_700_000_000_001 })], 1);
    assert.equal(s.table.find((t) => t.taskId === 'a')?.localised, 'tried clamp by fault localisation from the failing tests (score 1.00)');
    assert.equal(s.table.find((t) => t.taskId === 'b')?.label, 'range.js:clamp #2');
  });

  it('loads sessions saved without it, keeps it through a save, and resets a malformed one', () => {
    const withIt = [task('a', { localisedFrom: clamp })];
    assert.deepEqual(loadSession(JSON.parse(JSON.stringify(withIt))), { tasks: withIt });
    assert.deepEqual(loadSession(JSON.parse(JSON.stringify([task('b')]))).tasks.length, 1);
    const bad = loadSession([{ ...task('c'), localisedFrom: { functionName: 'clamp' } }]);
    assert.equal(bad.tasks.length, 0);
    assert.match(bad.problem ?? '', /task 1 is malformed/);
  });
});

describe('the localised tries share one sample budget', () => {
  it('gives each function a share that follows the scores, the last one all that is left (as the CLI does)', () => {
    assert.equal(sampleShare(10, [1, 0.4, 0.1]), 7);
    assert.equal(sampleShare(3, [0.4, 0.1]), 2);
    assert.equal(sampleShare(1, [0.1]), 1);
    // A share never drops below one sample, nor exceeds what is left; no evidence at all shares evenly.
    assert.equal(sampleShare(2, [1, 0.001]), 2);
    assert.equal(sampleShare(5, [0.001, 1]), 1);
    assert.equal(sampleShare(6, [0, 0, 0]), 2);
  });

  it('walks the ranked functions with what each try used, and stops when no function or sample is left', () => {
    const plan: LocalisedTry = { functions: [{ relativePath: 'src/range.js', name: 'clamp', score: 1 }, { relativePath: 'src/util.js', name: 'toInt', score: 0.4 }, { relativePath: 'src/util.js', name: 'pad', score: 0.1 }], failingTests: ['t'], index: 0, remaining: 10 };
    assert.equal(tryShare(plan), 7);
    // The generator ran out of mutants after 5: the two unused samples go to the next functions.
    const second = nextTry(plan, 5);
    assert.deepEqual(second && { index: second.index, remaining: second.remaining, share: tryShare(second) }, { index: 1, remaining: 5, share: 4 });
    assert.deepEqual(second && localisedFromTry(second), { functionName: 'toInt', score: 0.4, failingTests: ['t'] });
    const third = second && nextTry(second, 4);
    assert.equal(third && tryShare(third), 1);
    assert.equal(third && nextTry(third, 1), undefined);
    assert.equal(nextTry(plan, 10), undefined);
  });
});
