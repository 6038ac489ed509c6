// The repair bench's table: what the first n candidates of one request per task did, and what the user saw on top.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestOutcome, VerifiedCandidate } from '../../bench/repair/summary';
import { distinctFixes, firstCorrectRank, formatTable, summarize, topShown } from '../../bench/repair/summary';

function outcome(task: string, verified: VerifiedCandidate[], selection: 'exact' | 'function' = 'function'): RequestOutcome {
  return {
    task, selection, language: 'python', multiToken: true, samples: 100, mutants: 120, referenceRank: null, verified,
    durationMs: 1000, firstVerifiedMs: verified.length > 0 ? 500 : null, baseline: 'fail',
  };
}

describe('repair bench summary', () => {
  // a: correct at 4, a wrong fix at 20 listed first (it changes fewer characters); b: wrong only, at 50;
  // c: correct at 2 listed first, wrong at 8.
  const outcomes = [
    outcome('a', [{ index: 3, correct: true, shown: 1 }, { index: 19, correct: false, shown: 0 }]),
    outcome('b', [{ index: 49, correct: false, shown: 0 }]),
    outcome('c', [{ index: 1, correct: true, shown: 0 }, { index: 7, correct: false, shown: 1 }]),
  ];

  it('counts fixes, wrong fixes and a wrong fix on top of the list within each n', () => {
    const rows = summarize(outcomes, [5, 10, 30, 100], ['function']);
    // The median of ranks 2 and 4 is the upper one, as the other benches take it.
    assert.deepEqual(rows.map((r) => [r.n, r.fixed, r.wrong, r.wrongFirst, r.wrongAlone, r.medianRank]), [
      [5, 2, 0, 0, 0, 4],
      [10, 2, 1, 0, 0, 4],
      [30, 2, 2, 1, 0, 4],
      // b's wrong fix is the only one listed: nothing tells the user the tests do not decide.
      [100, 2, 3, 2, 1, 4],
    ]);
  });

  it('reads the top of the list among the first n only', () => {
    assert.equal(topShown(outcomes[0], 10)?.index, 3);
    assert.equal(topShown(outcomes[0], 30)?.index, 19);
    assert.equal(topShown(outcomes[1], 10), undefined);
    assert.equal(firstCorrectRank(outcomes[0], 30), 4);
    assert.equal(distinctFixes(outcomes[0], 10), 1);
    assert.equal(distinctFixes(outcomes[0], 30), 2);
  });

  it('prints one aligned row per selection and n, with the wrong-fix columns', () => {
    const table = formatTable(summarize(outcomes, [10, 30], ['function'])).split('\n');
    assert.match(table[0], /wrong fix verified {2}wrong fix first {2}of those alone {2}median rank$/);
    assert.equal(table.length, 3);
    assert.ok(table.every((line) => line.length === table[0].length), table.join('\n'));
  });
});
