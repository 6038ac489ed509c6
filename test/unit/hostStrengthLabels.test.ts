// The editor's words for a strength check cut short, a shared strength, its cost, and a candidate that "passed the
// failing tests; full run not reached": the list row and the Details report, as the CLI says them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateResult, FixResult, Verdict } from '../../src/core/contract/fixRequest';
import { formatRunReport } from '../../src/host/model/runReport';
import { STRENGTH_CUT_SHORT, verifiedLabel } from '../../src/host/model/candidateLabels';
import { verifiedCandidates } from '../../src/host/model/taskRecord';
import { FULL_RUN_NOT_REACHED } from '../../src/core/verification/evidence';

const verdict = (status: Verdict['status']): Verdict => ({ status, durationMs: 1200, exitCode: status === 'pass' ? 0 : 1, output: '', stdout: '', stderr: '' });
const diff = '--- a/sum.js\n+++ b/sum.js\n@@ -1 +1 @@\n-a\n+x\n';
const verified = (index: number, extra: Partial<CandidateResult> = {}): CandidateResult => ({
  index, replacement: `x${index}`, verdict: verdict('pass'), duplicateOf: null, runs: [verdict('pass')], verified: true, flaky: false, diff, changeSize: 2, changedCharacters: 1, ...extra,
});
const pinned = { variants: 10, caught: 10, survivors: [], weak: false };

function result(extra: Partial<FixResult>): FixResult {
  return {
    relativePath: 'sum.js', testCommand: 'npm test', baseline: verdict('fail'), baselinePassed: false, perTest: true, failingTests: ['t'],
    candidates: [verified(0, { strength: pinned }), verified(1, { strength: { ...pinned, sharedFrom: { index: 0, by: 'behaviour' } } }), verified(2)],
    verified: [0, 1, 2], samples: 4, passed: 3, lost: [], durationMs: 30_000, originalText: 'a\n', start: 0, end: 1, ...extra,
  };
}

const cutShort = { message: "the strength check's budget ran out: 9.9 s, 33% of the request", unchecked: [2], kind: 'budget' as const };

describe('the candidate list', () => {
  it('labels a fix the strength check did not reach as not checked, and a shared strength with whose it is', () => {
    const [first, second, third] = verifiedCandidates(result({ strengthCutShort: cutShort }));
    assert.equal(verifiedLabel(first), 'passed 1/1 run, 1.2 s · tests pin it: 10 of 10 variants caught');
    assert.equal(verifiedLabel(second), 'passed 1/1 run, 1.2 s · tests pin it: 10 of 10 variants caught (shared with candidate 1)');
    assert.equal(verifiedLabel(third), `passed 1/1 run, 1.2 s · ${STRENGTH_CUT_SHORT}`);
    assert.equal(third.strengthCutShort, cutShort.message);
    // A fix the budget did not start says its own reason, not the first fix's.
    const own = "the strength check's budget (6 s) could not decide it: deciding #3 takes about 14.2 s";
    const [, , withReason] = verifiedCandidates(result({ strengthCutShort: { ...cutShort, reasons: { 2: own } } }));
    assert.equal(withReason.strengthCutShort, own);
  });
  it('counts only decided variants: a budget\'s cut ones and timed-out ones are said apart, never as accepted by the tests', () => {
    const partly = { variants: 10, caught: 9, survivors: [], weak: false, notRun: 1 };
    const open = { variants: 10, caught: 4, survivors: [], weak: false, undecided: 1, notRun: 5 };
    const [first, second] = verifiedCandidates(result({ candidates: [verified(0, { strength: partly }), verified(1, { strength: open })], verified: [0, 1] }));
    assert.equal(verifiedLabel(first), 'passed 1/1 run, 1.2 s · tests pin it: 9 of 9 variants caught, 1 without an outcome');
    assert.equal(verifiedLabel(second), 'passed 1/1 run, 1.2 s · strength unknown: 6 of 10 variants without an outcome');
  });
  it('says nothing of a cut when the check finished', () => {
    const third = verifiedCandidates(result({}))[2];
    assert.equal(verifiedLabel(third), 'passed 1/1 run, 1.2 s');
  });
});

describe('the Details report', () => {
  it('gives each verified fix its strength or the cut, the check\'s cost, and the candidates a stop left after their failing tests', () => {
    const report = formatRunReport(result({
      strengthCutShort: cutShort, strengthCost: { runs: 12, durationMs: 8100, sharedFixes: 1, budgetMs: 9900 },
      passedFailingTestsOnly: [{ index: 3, replacement: 'y', diff, fixed: ['t'], label: 'n + 1' }],
    }), 'sum.js:1');
    assert.match(report, /Strength check: 12 runs, 8\.1 s, 27% of the request \(budget 9\.9 s\); 1 fix shared an equivalent fix's variants\./);
    assert.match(report, /The strength check was cut short: the strength check's budget ran out/);
    assert.match(report, /## Candidate 3: verified, 1\.2 s\n\nStrength: not checked \(the strength check's budget ran out: 9\.9 s, 33% of the request\)\./);
    assert.match(report, /## Candidate 2: verified, 1\.2 s\n\nStrength: tests pin this change: all 10 variants of it are caught \(the variants of #1, an equivalent fix: the same outcome on every input the behaviour check tried\)\./);
    assert.ok(report.includes(`## Candidate 4 — n + 1: ${FULL_RUN_NOT_REACHED} (not verified)`), report);
  });
});
