// Time limits from the baseline's duration: the multiple, the floor, the test timeout as the upper bound, and the words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSchedstat } from '../../src/core/sandbox/cpuWait';
import { LIMIT_FLOOR_MS, limitFromBaseline, runLimit, timeoutReason } from '../../src/core/verification/timeLimits';

describe('time limits from the baseline', () => {
  it('is a multiple of the baseline, above a floor', () => {
    assert.deepEqual(limitFromBaseline(1400, true), { ms: 7000, basis: "5× the baseline's 1.4 s" });
    assert.equal(limitFromBaseline(200, true)?.ms, LIMIT_FLOOR_MS);
    assert.match(limitFromBaseline(200, true)?.basis ?? '', /floor; the baseline took 0\.2 s/);
  });

  it('counts a baseline that started several test files at once as that many times longer, and says so', () => {
    assert.deepEqual(limitFromBaseline(1400, true, 2), { ms: 14_000, basis: "5× the baseline's 1.4 s, ×2 since it started 2 test files at once" });
  });

  it('sets none when the baseline ended early', () => {
    assert.equal(limitFromBaseline(1400, false), undefined);
    assert.equal(limitFromBaseline(0, true), undefined);
  });

  it('bounds only runs of the failing tests where the baseline stopped at its first failure (--bail)', () => {
    const found = limitFromBaseline(800, true);
    assert.ok(found);
    const limit = { ...found, failingTestsOnly: 'the command stops at its first failure (--bail)' };
    assert.deepEqual(runLimit(limit, 60_000), { ms: 5000, basis: 'the 5 s floor; the baseline took 0.8 s' }, 'a run of the failing tests');
    assert.deepEqual(runLimit(limit, 60_000, undefined, true), {}, 'a full run: the test timeout');
    assert.deepEqual(runLimit(limit, 60_000, 3000, true), { ms: 3000 }, 'a full run with a limit of its own');
    assert.deepEqual(runLimit(found, 60_000, undefined, true), { ms: 5000, basis: 'the 5 s floor; the baseline took 0.8 s' }, 'a baseline that ran to the end bounds full runs too');
  });

  it('never exceeds the test timeout or a shorter limit of the caller', () => {
    const limit = limitFromBaseline(1400, true);
    assert.deepEqual(runLimit(limit, 60_000), { ms: 7000, basis: "5× the baseline's 1.4 s" });
    assert.deepEqual(runLimit(limit, 5000), {}, 'the test timeout applies, with its own words');
    assert.deepEqual(runLimit(limit, 60_000, 3000), { ms: 3000 });
    assert.deepEqual(runLimit(undefined, 60_000, 3000), { ms: 3000 });
    assert.equal(timeoutReason(7000, "5× the baseline's 1.4 s"), "timed out after 7 s (5× the baseline's 1.4 s)");
  });

  it('says how long a timed-out run waited for a CPU beyond its limit, and nothing for a sampling interval\'s slack', () => {
    assert.equal(timeoutReason(7000, "5× the baseline's 1.4 s", 16_400), "timed out after 7 s (5× the baseline's 1.4 s), not counting 9.4 s spent waiting for a CPU");
    assert.equal(timeoutReason(7000, "5× the baseline's 1.4 s", 7600), "timed out after 7 s (5× the baseline's 1.4 s)");
  });

  it('reads the run-queue wait from a thread\'s schedstat line', () => {
    assert.equal(parseSchedstat('271790 18408420 1\n'), 18408420);
    assert.equal(parseSchedstat(''), undefined);
  });
});
