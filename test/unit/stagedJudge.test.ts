// judgeRun against a baseline that stopped early (--bail): the tests it never reached are not "broken" by a candidate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import type { RunnerAdapter, TestResult } from '../../src/core/testResults/types';
import { judgeRun } from '../../src/core/verification/stagedVerification';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';
import type { Verdict } from '../../src/core/contract/fixRequest';

/** An adapter whose "report" is the results themselves, as JSON. */
const adapter: RunnerAdapter = { ...mochaAdapter, parse: (report) => (report ? (JSON.parse(report) as TestResult[]) : []) };
const verdict = (status: 'pass' | 'fail'): Verdict => ({ status, exitCode: status === 'pass' ? 0 : 1, durationMs: 5, output: '', stdout: '', stderr: '' });

// The baseline ran with --bail: one pass, then the failure, and nothing after it.
const baseline: TestResult[] = [
  { id: 'a > keeps', outcome: 'passed' },
  { id: 'a > caps', outcome: 'failed' },
];
const plan: PerTestPlan = { adapter, base: 'mocha --bail', baseline, failing: ['a > caps'], baselineRan: 2 };

describe('judgeRun after a --bail baseline', () => {
  it('passes a fix that runs more tests than the baseline reached', () => {
    const now = [...baseline.slice(0, 1), { id: 'a > caps', outcome: 'passed' }, { id: 'b > later', outcome: 'passed' }] as TestResult[];
    const judged = judgeRun({ verdict: verdict('pass'), report: JSON.stringify(now) }, plan, 'full');
    assert.equal(judged.verdict.status, 'pass', judged.verdict.reason);
    assert.deepEqual(judged.tests.fixed, ['a > caps']);
  });

  it('says a failing test the baseline never reached was not reached, not broken', () => {
    const now = [...baseline.slice(0, 1), { id: 'a > caps', outcome: 'passed' }, { id: 'b > later', outcome: 'failed' }] as TestResult[];
    const judged = judgeRun({ verdict: verdict('fail'), report: JSON.stringify(now) }, plan, 'full');
    assert.equal(judged.verdict.status, 'fail');
    assert.equal(judged.verdict.reason, "fails: b > later (the unmodified code's run stopped before reaching it)");
  });

  it('still says broke for a test that passed on the baseline', () => {
    const now = [{ id: 'a > keeps', outcome: 'failed' }, { id: 'a > caps', outcome: 'passed' }] as TestResult[];
    assert.equal(judgeRun({ verdict: verdict('fail'), report: JSON.stringify(now) }, plan, 'full').verdict.reason, 'broke: a > keeps');
  });
});

describe('judgeRun of a run that stopped at its first failure (stage 1 stops there)', () => {
  const failing = ['a > one', 'a > two', 'a > three'];
  const stagePlan: PerTestPlan = { adapter, base: 'mocha', baseline: failing.map((id) => ({ id, outcome: 'failed' as const })), failing, baselineRan: 3 };

  it('names the test that still fails and counts the ones it never reached, not as failing', () => {
    const now: TestResult[] = [{ id: 'a > one', outcome: 'passed' }, { id: 'a > two', outcome: 'failed', message: 'expected 2' }];
    const judged = judgeRun({ verdict: verdict('fail'), report: JSON.stringify(now) }, stagePlan, 'failing-tests');
    assert.equal(judged.verdict.reason, 'still failing: a > two (1 more of the failing tests did not run)');
    assert.deepEqual(judged.tests.stillFailing, ['a > two']);
    assert.deepEqual(judged.tests.fixed, ['a > one']);
  });

  it('a run that reported no failure but left failing tests out still counts those as failing', () => {
    const now: TestResult[] = [{ id: 'a > one', outcome: 'passed' }];
    const judged = judgeRun({ verdict: verdict('fail'), report: JSON.stringify(now) }, stagePlan, 'failing-tests');
    assert.equal(judged.verdict.reason, 'still failing: a > two, a > three');
    assert.deepEqual(judged.tests.stillFailing, ['a > two', 'a > three']);
  });
});
