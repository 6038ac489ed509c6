// One request at a time (src/host/model/requestSlot.ts): a new request starts, is refused while verdicts come in, or
// cancels the checks after the verdicts (with the reason the first request's result gives) and waits for its end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrive, CHECKS_CANCELLED } from '../../src/host/model/requestSlot';
import type { ActiveRequest } from '../../src/host/model/requestSlot';
import { outcomeOf } from '../../src/host/model/outcome';
import type { FixResult } from '../../src/core/contract/fixRequest';

function active(phase: ActiveRequest['phase'], reasons: string[]): ActiveRequest {
  return { location: 'src/range.js lines 2–11', phase, cancel: (reason) => reasons.push(reason), ended: Promise.resolve() };
}

describe('request slot', () => {
  it('starts when nothing runs', () => {
    assert.deepEqual(arrive(undefined), { kind: 'start' });
  });

  it('refuses while the active request is still verifying candidates, and cancels nothing', () => {
    const reasons: string[] = [];
    assert.deepEqual(arrive(active('verifying', reasons)), { kind: 'refuse', location: 'src/range.js lines 2–11' });
    assert.deepEqual(reasons, []);
  });

  it('cancels the checks after the verdicts, saying why, and lets the new request wait for the end', () => {
    const reasons: string[] = [];
    assert.deepEqual(arrive(active('checks', reasons)), { kind: 'preempt', location: 'src/range.js lines 2–11' });
    assert.deepEqual(reasons, [CHECKS_CANCELLED]);
    assert.equal(CHECKS_CANCELLED, 'strength check cancelled by a new request');
  });

  it('refuses a request whose engine run has not started (nothing to cancel yet)', () => {
    const request: ActiveRequest = { location: 'x', phase: 'checks', ended: Promise.resolve() };
    assert.equal(arrive(request).kind, 'refuse');
  });
});

describe('the first request\'s outcome when a new request cancelled its checks', () => {
  it('says the strength check was cancelled by a new request, beside the list already shown', () => {
    const pass = { status: 'pass', durationMs: 1, exitCode: 0, output: '', stdout: '', stderr: '' };
    const candidates = [0, 1].map((index) => ({ index, replacement: 'x', verdict: pass, duplicateOf: null, runs: [pass], verified: true, flaky: false, diff: '', changeSize: 1, changedCharacters: 1 }));
    const result = {
      relativePath: 'sum.js', testCommand: 'npm test', baseline: null, baselinePassed: false, perTest: false, failingTests: [], candidates, verified: [0, 1],
      samples: 2, passed: 2, lost: [], k: 1, passAtK: {}, passHatK: {}, durationMs: 1, originalText: 'a', start: 0, end: 1,
      strengthCutShort: { message: CHECKS_CANCELLED, unchecked: [1] },
    } as unknown as FixResult;
    for (const listOpened of [true, false]) {
      const outcome = outcomeOf(result, { location: 'sum.js:7', alreadyListed: true, documentChanged: false, idle: false, listOpened });
      assert.equal(outcome.list, 'update');
      assert.match(outcome.message?.text ?? '', /Stopped: strength check cancelled by a new request; 1 verified fix\(es\) not checked for strength\./);
    }
  });
});
