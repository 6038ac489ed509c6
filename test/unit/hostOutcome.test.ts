// outcomeOf's decision table: which list, which message and which actions each way a request can end gets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateResult, FixResult, Verdict } from '../../src/core/contract/fixRequest';
import type { Outcome, OutcomeContext } from '../../src/host/model/outcome';
import { outcomeOf } from '../../src/host/model/outcome';

const pass: Verdict = { status: 'pass', durationMs: 100, exitCode: 0, output: '', stdout: '', stderr: '' };
const fail: Verdict = { status: 'fail', durationMs: 100, exitCode: 1, output: '', stdout: '', stderr: '' };
const timeout: Verdict = { status: 'timeout', cause: 'timeout', reason: 'timed out after 1.0 s', durationMs: 1000, exitCode: null, output: '', stdout: '', stderr: '' };
const setup: Verdict = { status: 'error', cause: 'sandboxSetup', reason: 'bwrap: setting up uid map: Permission denied', durationMs: 10, exitCode: 1, output: '', stdout: '', stderr: '' };

function candidate(index: number, over: Partial<CandidateResult> = {}): CandidateResult {
  const verified = over.verified ?? false;
  return {
    index, replacement: 'x', verdict: verified ? pass : fail, duplicateOf: null, runs: [verified ? pass : fail], verified, flaky: false,
    diff: '', changeSize: 1, changedCharacters: 1, ...over,
  } as CandidateResult;
}

function result(over: Partial<FixResult> = {}): FixResult {
  const candidates = over.candidates ?? [];
  return {
    relativePath: 'sum.js', testCommand: 'npm test', baseline: null, baselinePassed: false, perTest: false, failingTests: [],
    candidates, verified: candidates.filter((c) => c.verified).map((c) => c.index), samples: candidates.length,
    passed: candidates.filter((c) => c.verified).length, lost: [], k: 5, passAtK: {}, passHatK: {}, durationMs: 1000,
    originalText: 'a', start: 0, end: 1, ...over,
  } as FixResult;
}

const two = [candidate(0, { verified: true }), candidate(1, { verified: true })];
const weakOne = [candidate(0, { verified: true, strength: { variants: 3, caught: 2, weak: true, survivors: [] } as unknown as CandidateResult['strength'] }), candidate(1, { verified: true })];
const cancelled = { kind: 'cancelled', message: 'cancelled' } as const;
const context = (over: Partial<OutcomeContext> = {}): OutcomeContext => ({ location: 'sum.js:7', alreadyListed: false, documentChanged: false, idle: true, listOpened: over.alreadyListed ?? false, ...over });

/** [case, result, context, kind, list, severity (or none), actions, openPicker, a part of the message] */
const table: [string, FixResult, OutcomeContext, Outcome['kind'], Outcome['list'], 'info' | 'warn' | undefined, string[], boolean, string][] = [
  ['cancelled with verified candidates', result({ candidates: two, stoppedEarly: cancelled }), context(), 'cancelled', 'present', 'info', [], true, 'Cancelled sum.js:7: 2 candidate(s) tested, 2 verified.'],
  ['cancelled with none', result({ stoppedEarly: cancelled }), context(), 'cancelled', 'present', 'info', [], false, '0 verified'],
  ['cancelled after the early list', result({ candidates: two, stoppedEarly: cancelled }), context({ alreadyListed: true }), 'cancelled', 'keep', 'info', [], true, 'left out of the statistics'],
  ['baseline passed, candidates pass too', result({ candidates: two, baselinePassed: true }), context(), 'baselinePassed', 'present', 'warn', ['Show Candidates', 'Details'], false, 'already pass on the unmodified code of sum.js:7'],
  ['baseline passed, nothing verified', result({ baselinePassed: true }), context(), 'baselinePassed', 'present', 'warn', ['Details'], false, 'proves little'],
  ['verified, listed early, strong tests', result({ candidates: two }), context({ alreadyListed: true }), 'verified', 'update', undefined, [], false, ''],
  ['verified, listed early, weak tests', result({ candidates: weakOne }), context({ alreadyListed: true }), 'verified', 'update', 'warn', [], false, 'Weak tests at sum.js:7: 1 of 2 verified fix(es)'],
  ['verified, document unchanged', result({ candidates: two }), context(), 'verified', 'present', undefined, [], true, ''],
  ['verified, document changed', result({ candidates: two }), context({ documentChanged: true }), 'verified', 'present', 'info', ['Show Candidates'], false, '2 verified fix(es) for sum.js:7; the file changed'],
  // The user moved on (typed, clicked, switched editors): the list never opens by itself; the message offers it.
  ['verified, the user moved on', result({ candidates: two }), context({ idle: false }), 'verified', 'present', 'info', ['Show Candidates'], false, '2 verified fix(es) for sum.js:7.'],
  ['verified, listed early but not opened', result({ candidates: two }), context({ alreadyListed: true, listOpened: false, idle: false }), 'verified', 'update', 'info', ['Show Candidates'], false, '2 verified fix(es) for sum.js:7.'],
  ['verified, listed early, not opened, weak', result({ candidates: weakOne }), context({ alreadyListed: true, listOpened: false }), 'verified', 'update', 'warn', ['Show Candidates'], false, 'Weak tests: 1 of 2'],
  ['cancelled with verified, the user moved on', result({ candidates: two, stoppedEarly: cancelled }), context({ idle: false }), 'cancelled', 'present', 'info', ['Show Candidates'], false, '2 verified'],
  ['none, no candidates produced', result({ lost: [{ kind: 'server', message: 'HTTP 500' }] }), context(), 'none', 'present', 'info', ['Details', 'Settings'], false, '(0 of 0 passed) for sum.js:7: no candidates were produced (HTTP 500).'],
  ['none, only flaky', result({ candidates: [candidate(0, { flaky: true })], passed: 1 }), context(), 'none', 'present', 'info', ['Details', 'Settings'], false, '1 candidate passed only some of their runs (flaky), so none is verified'],
  ['none, stopped early', result({ candidates: [candidate(0)], stoppedEarly: { kind: 'totalTimeout', message: 'the time limit passed' } }), context(), 'none', 'present', 'info', ['Details', 'Settings'], false, 'Stopped early: the time limit passed. Next:'],
  // Advice from why they failed, never the same sentence for every failure.
  ['none, every candidate timed out', result({ candidates: [candidate(0, { verdict: timeout, runs: [timeout] }), candidate(1, { verdict: timeout, runs: [timeout] })] }), context(), 'none', 'present', 'info', ['Details', 'Settings'], false, 'all 2 candidates timed out (stopped at 1.0 s). Next: raise verifiedFix.testTimeoutSeconds'],
  ['none, the sandbox could not start', result({ candidates: [candidate(0, { verdict: setup, runs: [setup] })] }), context(), 'none', 'present', 'info', ['Details', 'Settings'], false, 'make the test command run in the sandbox first'],
  ['baseline timed out', result({ baseline: timeout, candidates: [], stoppedEarly: { kind: 'baselineTimeout', message: 'timed out' } }), context(), 'baselineTimeout', 'present', 'warn', ['Settings', 'Details'], false, 'the tests on the unmodified code timed out (stopped at 1.0 s), so no candidate could be judged and the request stopped. Next: raise verifiedFix.testTimeoutSeconds above the time the tests take'],
];

describe('outcomeOf', () => {
  for (const [name, r, c, kind, list, severity, actions, openPicker, text] of table) {
    it(name, () => {
      const outcome = outcomeOf(r, c);
      assert.equal(outcome.kind, kind);
      assert.equal(outcome.list, list);
      assert.equal(outcome.message?.severity, severity);
      assert.deepEqual(outcome.message?.actions ?? [], actions);
      assert.equal(outcome.openPicker, openPicker);
      if (text) assert.ok(outcome.message?.text.includes(text), outcome.message?.text);
    });
  }
});
