// A head start beside the baseline, on real mocha 11 through the built CLI: the first candidate's full run starts while
// the baseline runs, at the lowest CPU priority, and only its pass counts. A test that checks its own priority fails
// in the head start and passes in the candidate's own full run, which decides.
import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { FILES, candidatesRequest } from './sharedRoundsRequests';

const RIGHT = '  if (x < lo) return lo;\n  if (x > hi) return hi;';
const WRONG = '  if (x < lo) return lo;\n  if (x > hi) return x;';
const mocha11 = cachedRunner('mocha-11', 'mocha');
const NOT_PASSED = /candidate #1's full run beside the baseline did not pass: a run of its own decides/;
/** A head start that got no CPU beside other work in time (the machine busy with other test files). */
const DROPPED = /candidate #1's full run beside the baseline ran past a full run's limit and was dropped/;
const STARVED = 'the head start got no CPU beside other work and was dropped before it ended: not checked this time';

function workspace(extra: Record<string, string> = {}): string {
  const ws = makeWorkspace({ ...FILES, ...extra, 'package.json': JSON.stringify({ name: 'head-start-demo', private: true, scripts: { test: 'mocha --reporter dot test/' } }) });
  symlinkSync(mocha11 as string, join(ws, 'node_modules'));
  return ws;
}

describe('a head start beside the baseline (mocha 11)', { skip: mocha11 ? false : missingRunner('mocha-11') }, () => {
  it('verifies a right first candidate on its head start: no second full run', async (t) => {
    const r = await candidatesRequest(workspace(), 'src/calc.js', [RIGHT, WRONG]);
    assert.match(r.stderr, /candidate #1's full run starts beside the baseline, on a slot the baseline leaves idle/, r.stderr);
    assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
    // At the lowest priority it takes only what other work leaves: on a machine busy with other test files it can
    // get nothing, and is dropped for its time. Then there is nothing to check, and the report says so.
    if (DROPPED.test(r.stderr)) return t.skip(STARVED);
    assert.doesNotMatch(r.stderr, /a run of its own decides/, r.stderr);
    assert.equal(r.candidates[0].stage, 'full', r.stderr);
    assert.equal(r.candidates[0].tests?.fixed.length, 2, r.stderr);
  });

  it('runs it at the lowest priority, and a head start that did not pass is not the verdict', async (t) => {
    const priority = "var assert = require('assert');\nit('runs at the default priority', function () { assert.equal(require('os').getPriority(), 0); });\n";
    const r = await candidatesRequest(workspace({ 'test/priority.test.js': priority }), 'src/calc.js', [RIGHT, WRONG]);
    assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
    if (DROPPED.test(r.stderr)) return t.skip(STARVED);
    assert.match(r.stderr, NOT_PASSED, r.stderr);
  });

  // Each run is a session of its own, and where the kernel schedules sessions as groups, nice alone left the head
  // start half of a contended machine: its session's nice value must be the lowest too.
  it('puts the head start\'s whole session at the lowest priority', { skip: existsSync('/proc/self/autogroup') ? false : 'this kernel does not group sessions (no /proc/self/autogroup)' }, async (t) => {
    const session = "var assert = require('assert');\nit('runs in a session at the default priority', function () { assert.match(require('fs').readFileSync('/proc/self/autogroup', 'utf8'), / nice 0\\n?$/); });\n";
    const r = await candidatesRequest(workspace({ 'test/session.test.js': session }), 'src/calc.js', [RIGHT, WRONG]);
    assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
    if (DROPPED.test(r.stderr)) return t.skip(STARVED);
    assert.match(r.stderr, NOT_PASSED, r.stderr);
  });
});
