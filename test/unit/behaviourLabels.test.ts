// The behaviour check's wording: the CLI's lines, the note on a list item and a diff title, and what the editor keeps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { behaviourNote, describeBehaviour, undecidedLine } from '../../src/core/behaviour/describe';
import type { BehaviourReport } from '../../src/core/contract/behaviour';
import { behaviourCount, listTitle, verifiedLabel } from '../../src/host/model/candidateLabels';
import { verifiedCandidates } from '../../src/host/model/taskRecord';
import type { CandidateResult, FixResult } from '../../src/core/contract/fixRequest';

const differ: BehaviourReport = {
  function: 'pageCount',
  status: 'compared',
  observed: 2,
  generated: 298,
  failingTestInputs: 1,
  fixes: [
    { index: 0, tried: 300, changed: 13, changedBeyondFailingTests: 12, examples: [{ call: 'pageCount(9, 5)', first: '1', second: '2' }] },
    { index: 2, tried: 300, changed: 1, changedBeyondFailingTests: 0, examples: [] },
    { index: 4, tried: 300, changed: 13, changedBeyondFailingTests: 12, examples: [{ call: 'pageCount(9, 5)', first: '1', second: '2' }] },
  ],
  groups: [[0, 4], [2]],
  pairs: [{ first: 0, second: 2, differing: 4, examples: [{ call: 'pageCount(10, 5)', first: '2', second: '3' }] }],
};

describe('the behaviour check in words', () => {
  it('names the groups, the distinguishing inputs and what each fix changes beyond the failing tests', () => {
    assert.deepEqual(describeBehaviour(differ), [
      'behaviour check (pageCount): 3 fixes, 2 behaviours on 300 inputs tried (2 from the tests, 298 generated near them): #1 #5 | #3',
      '  fixes #1 and #3 differ on pageCount(10, 5): #1 → 2, #3 → 3',
      '  (they differ on 4 inputs in all)',
      '  fix #1: besides the failing tests, this fix changes the result on 12 of 300 inputs tried, e.g. pageCount(9, 5): before 1, after 2',
      '  fix #3: besides the failing tests, this fix changes no result on the 300 inputs tried',
      '  fix #5: besides the failing tests, this fix changes the result on 12 of 300 inputs tried, e.g. pageCount(9, 5): before 1, after 2',
    ]);
    const agree: BehaviourReport = { ...differ, groups: [[0, 2, 4]], pairs: [] };
    assert.match(describeBehaviour(agree)[0], /3 fixes, 1 behaviour: they agree on every one of 300 inputs tried/);
    assert.deepEqual(describeBehaviour({ status: 'notReplayable', reason: 'the selection is not inside a function', observed: 0, generated: 0, failingTestInputs: 0, fixes: [], groups: [], pairs: [] }), [
      'behaviour check: the selected function is not replayable: the selection is not inside a function',
    ]);
    const untold: BehaviourReport = { ...differ, failingTestInputs: 0 };
    assert.match(describeBehaviour(untold)[3], /fix #1: this fix changes the result on 13 of 300 inputs tried \(the failing tests' among them/);
  });

  it('gives each verified fix a note for the list and the diff title, and the editor keeps it', () => {
    assert.equal(behaviourNote(differ, 0), 'behaviour 1 of 2: pageCount(10, 5) → 2');
    assert.equal(behaviourNote(differ, 2), 'behaviour 2 of 2: pageCount(10, 5) → 3');
    assert.equal(behaviourNote(differ, 4), 'behaviour 1 of 2: pageCount(10, 5) → 2');
    assert.equal(behaviourNote({ ...differ, groups: [[0, 2, 4]], pairs: [] }, 2), 'same behaviour as every other fix on 300 inputs');
    assert.equal(behaviourNote(undefined, 0), undefined);
    const candidate = (index: number): CandidateResult => ({
      index, replacement: `r${index}`, verdict: { status: 'pass', durationMs: 1000, exitCode: 0, output: '', stdout: '', stderr: '' }, duplicateOf: null,
      runs: [{ status: 'pass', durationMs: 1000, exitCode: 0, output: '', stdout: '', stderr: '' }], verified: true, flaky: false, diff: '', changeSize: 2, changedCharacters: 3,
    });
    const result = { candidates: [0, 1, 2, 3, 4].map(candidate), verified: [0, 2, 4], behaviour: differ } as unknown as FixResult;
    const stored = verifiedCandidates(result);
    const summary = '3 fixes pass with 2 behaviours; #1 and #3 differ on pageCount(10, 5)';
    assert.deepEqual(stored.map((c) => c.behaviour), [
      { group: 1, groups: 2, note: 'behaviour 1 of 2: pageCount(10, 5) → 2', summary },
      { group: 2, groups: 2, note: 'behaviour 2 of 2: pageCount(10, 5) → 3', summary },
      { group: 1, groups: 2, note: 'behaviour 1 of 2: pageCount(10, 5) → 2', summary },
    ]);
    assert.match(verifiedLabel(stored[1]), /passed 1\/1 run, 1\.0 s · behaviour 2 of 2: pageCount\(10, 5\) → 3$/);
    assert.equal(behaviourCount(stored), '3 fixes, 2 behaviours on the inputs tried');
    assert.equal(behaviourCount(verifiedCandidates({ ...result, behaviour: undefined })), '');
    assert.equal(listTitle(stored, 'src/pages.js:2'), 'src/pages.js:2: 3 fixes pass with 2 behaviours; #1 and #3 differ on pageCount(10, 5)');
    assert.equal(listTitle(verifiedCandidates({ ...result, behaviour: undefined }), 'src/pages.js:2'), '3 different fixes pass for src/pages.js:2: the tests do not decide between them, so read each');
    // A session saved before the summary was kept: the old title, with the groups.
    assert.match(listTitle(stored.map((c) => ({ ...c, behaviour: c.behaviour && { ...c.behaviour, summary: undefined } })), 'a.js:2'), /^3 different fixes pass for a\.js:2: .*\(3 fixes, 2 behaviours on the inputs tried\)$/);
  });

  it('says in the "fixes pass" line whether the fixes behave the same, or where they differ', () => {
    const two: BehaviourReport = { ...differ, fixes: differ.fixes.slice(0, 2), groups: [[0], [2]] };
    assert.equal(undecidedLine(2, two), '2 fixes pass; they differ on pageCount(10, 5)');
    assert.equal(undecidedLine(2, { ...two, groups: [[0, 2]], pairs: [] }), '2 fixes pass and behave the same on all 300 inputs tried');
    assert.equal(undecidedLine(3, differ), '3 fixes pass with 2 behaviours; #1 and #3 differ on pageCount(10, 5)');
    // Without the check, or when a fix was not replayed (in no group): only what the tests say.
    const plain = '2 different fixes pass: the tests do not decide between them, so read each';
    assert.equal(undecidedLine(2, undefined), plain);
    assert.equal(undecidedLine(2, { ...two, groups: [[0]], pairs: [] }), plain);
    assert.equal(undecidedLine(2, { ...two, status: 'notReplayable', groups: [], pairs: [] }), plain);
  });
});
