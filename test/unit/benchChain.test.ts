// The real-projects bench's chain: the steps a request takes one after another, read from its log and --json.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainFloorMs, chainOf } from '../../bench/projects/chain';
import type { ChainCandidate, Timed } from '../../bench/projects/chain';

const at = (seconds: number, text: string): Timed => ({ at: seconds * 1000, text });

// As a jest request logs them: two shared stage-1 processes, #2 and #1 first in theirs; #1 passed and was verified.
const LOG: Timed[] = [
  at(0.29, 'verified-fix: sandbox: bwrap (bubblewrap sandbox as an unprivileged user, no capabilities); memory cap: a cgroup per run'),
  at(0.5, "verified-fix: candidate #1's full run starts beside the baseline, on a slot the baseline leaves idle: it counts once the candidate passes its failing tests"),
  at(2.13, 'baseline (unmodified code): fail, 1.6 s'),
  at(5.63, 'candidate #2 fail: still failing: test/index.test.js > gensync.all() > success, 1.8 s'),
  at(5.64, 'candidate #4 fail: still failing: test/index.test.js > gensync.all() > success, 0.7 s'),
  at(5.64, 'verified-fix: stage 1 of candidates #2, #4, #6, #8, #10 shared one jest process (3.4 s), one round each'),
  at(5.66, 'candidate #3 fail: still failing: test/index.test.js > gensync.all() > success, 0.9 s'),
  at(5.66, 'verified-fix: stage 1 of candidates #1, #3, #5, #7, #9 shared one jest process (3.4 s), one round each'),
];

const candidate = (index: number, durationMs: number, stage = 'failing-tests'): ChainCandidate => ({ index, durationMs, stage });

describe('the bench chain', () => {
  it('takes the start-up as the time before the baseline process started, from the --json duration', () => {
    const chain = chainOf(LOG, 1630, [candidate(1, 1800)]);
    assert.ok(chain);
    assert.equal(Math.round(chain.startupMs), 500);
    assert.equal(chain.baselineMs, 1630);
  });

  it("counts a shared process's first round as a stage-1 process, not a later round, which paid no start-up", () => {
    // #4 and #3 (indexes 3 and 2) ran after others in their processes: shorter, but not runs of their own.
    const chain = chainOf(LOG, 1630, [candidate(1, 1800), candidate(3, 700), candidate(2, 900), candidate(0, 3800, 'full')]);
    assert.equal(chain?.stageOneProcessMs, 1800);
  });

  it('leaves out a first round whose candidate went on to its full run, and takes the cheapest of the others', () => {
    // #1 (index 0) was first in its process but passed: its duration is its full run's.
    const chain = chainOf(LOG, 1630, [candidate(0, 900, 'full'), candidate(1, 2100), candidate(3, 700)]);
    assert.equal(chain?.stageOneProcessMs, 2100);
  });

  it('counts stage-1 runs that shared no process as runs of their own', () => {
    const alone: Timed[] = [at(1.1, 'baseline (unmodified code): fail, 0.6 s'), at(1.6, 'candidate #1 fail: still failing: a > b, 0.4 s'), at(1.7, 'candidate #2 fail: still failing: a > b, 0.4 s')];
    const chain = chainOf(alone, 600, [candidate(0, 420), candidate(1, 380)]);
    assert.equal(chain?.stageOneProcessMs, 380);
  });

  it('takes the process that gave the verdict: one named third in a process that stopped early, then run alone, ran alone', () => {
    // As deepmerge bug 2 logged it: #6 was third in a process that ended after #2's round, then ran in one of its own.
    const log: Timed[] = [
      at(0.7, 'baseline (unmodified code): fail, 0.3 s'),
      at(1.08, 'candidate #2 fail: still failing: t > a, 0.4 s'),
      at(1.08, 'verified-fix: stage 1 of candidates #2, #4, #6, #8, #10 shared one tape process (0.4 s), one round each; it ended after 1: a test timed out or threw outside a test (#12 in its name)'),
      at(1.42, 'candidate #6 fail: still failing: t > a, 0.3 s'),
      at(1.43, 'candidate #4 fail: still failing: t > a, 0.2 s'),
      at(1.43, 'verified-fix: stage 1 of candidates #4, #8 shared one tape process (0.3 s), one round each'),
    ];
    assert.equal(chainOf(log, 300, [candidate(5, 310), candidate(3, 200), candidate(1, 400)])?.stageOneProcessMs, 200);
    // #12, named in the first line's trailer only, is no candidate of that process: alone, it counts.
    assert.equal(chainOf([...log, at(1.5, 'candidate #12 fail: still failing: t > a, 0.1 s')], 300, [candidate(11, 100)])?.stageOneProcessMs, 100);
  });

  it('leaves out a duplicate, which ran nothing of its own', () => {
    const alone: Timed[] = [at(1.1, 'baseline (unmodified code): fail, 0.6 s'), at(1.6, 'candidate #1 fail: still failing: a > b, 0.4 s'), at(1.6, 'candidate #2 fail: still failing: a > b, 0 s')];
    assert.equal(chainOf(alone, 600, [candidate(0, 420), { ...candidate(1, 0), duplicateOf: 0 }])?.stageOneProcessMs, 420);
  });

  it('counts a full run where a candidate went on to one, but not a head start that stood as its full run', () => {
    // #1 (index 0) began beside the baseline: off the chain. #3 (index 2) passed stage 1 later: its full run is on it.
    assert.equal(chainOf(LOG, 1630, [candidate(0, 3800, 'full'), candidate(1, 1800)])?.fullRunAfter, false);
    assert.equal(chainOf(LOG, 1630, [candidate(0, 3800, 'full'), candidate(2, 1500, 'full')])?.fullRunAfter, true);
    const lost = [...LOG, at(5.7, "verified-fix: candidate #1's full run beside the baseline did not pass: a run of its own decides")];
    assert.equal(chainOf(lost, 1630, [candidate(0, 3800, 'full')])?.fullRunAfter, true, 'a head start that did not pass is run again, on the chain');
    assert.equal(chainOf(LOG, 1630, [candidate(1, 1800)])?.fullRunAfter, false, 'none went on');
  });

  it('has no stage-1 step where no candidate ended at stage 1, and no chain without a baseline', () => {
    const chain = chainOf(LOG, 1630, [candidate(2, 3800, 'full')]);
    assert.ok(chain);
    assert.equal(chain.stageOneProcessMs, undefined);
    assert.equal(chainFloorMs(chain, 1300), chain.startupMs + 1630 + 1300);
    assert.equal(chainOf([at(0.4, 'verified-fix: sandbox: bwrap')], undefined, []), undefined);
    assert.equal(chainOf(LOG, undefined, []), undefined);
  });

  it('sums the steps', () => {
    assert.equal(chainFloorMs({ startupMs: 400, baselineMs: 700, stageOneProcessMs: 350, fullRunAfter: true }, 650), 2100);
    assert.equal(chainFloorMs({ startupMs: 400, baselineMs: 700, stageOneProcessMs: 350, fullRunAfter: false }, 650), 1450);
  });
});
