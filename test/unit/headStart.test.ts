// A head start: while the baseline runs on one slot and another is idle, the first candidate's full run starts there.
// Orders of events and verdicts only, never timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunQueue } from '../../src/core/execution/runQueue';
import { Verifier } from '../../src/core/verification/verifier';
import type { Reference } from '../../src/core/verification/reference';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import type { TestResult } from '../../src/core/testResults/types';
import { describeRuns } from '../../src/core/verification/evidence';
import { defer } from '../../src/core/base/defer';
import type { BaselineLimit } from '../../src/core/verification/timeLimits';
import { scriptedExecutor, selectingAdapter } from './helpers/fakeRuns';

const baseline: TestResult[] = [{ id: 'a', outcome: 'failed' }, { id: 'b', outcome: 'passed' }];
const referenceWith = (limit?: BaselineLimit): Reference => ({ plan: { adapter: selectingAdapter, base: 'node --test', baseline, failing: ['a'], baselineRan: 2 }, ...(limit ? { limit } : {}) });

/**
 * The fake runs of survivorsFirst ('good' passes everything, anything else fails `a`), where a head start (a label
 * ending in `h`) waits for `release` and ends as cancelled when its own signal aborts, as the local executor's does.
 */
function executor(started: string[], release: Promise<void>, dropped: string[], interfere = false, lowPriority: string[] = [], hold?: { entered: string[]; until: Promise<void> }): TestExecutor {
  // 'breaker' fixes `a` and breaks `b`.
  const inner = scriptedExecutor(started, ['a', 'b'], (text, id) => text === 'good' || (text === 'breaker' ? id === 'a' : id !== 'a'));
  return {
    ...inner,
    runsCanInterfere: interfere,
    run: async (fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun> => {
      if (options?.lowPriority) lowPriority.push(label);
      if (!label.endsWith('h')) {
        // Candidate #1's runs are never held: it is the one with the head start.
        if (hold && !label.startsWith('c0')) {
          hold.entered.push(label);
          await hold.until;
        }
        return inner.run(fileText, label, options);
      }
      const signal = options?.signal;
      const aborted = new Promise<'aborted'>((resolve) => signal?.addEventListener('abort', () => resolve('aborted'), { once: true }));
      if ((await Promise.race([release.then(() => 'released' as const), aborted])) === 'aborted') {
        dropped.push(label);
        return { verdict: { status: 'error', durationMs: 0, exitCode: null, output: '', stdout: '', stderr: '', cancelled: true } };
      }
      return inner.run(fileText, label, options);
    },
  };
}

/**
 * A request of two slots whose baseline holds one until `baselineDone` opens, as runFix's is; with `holdRuns`, the
 * other candidates' runs are listed in `entered` as they start and go on only once `openRuns` is called.
 */
function request(options: { interfere?: boolean; limit?: BaselineLimit; slots?: number; holdRuns?: boolean } = {}) {
  const entered: string[] = [];
  const runsOpen = defer<void>();
  const hold = options.holdRuns ? { entered, until: runsOpen.promise } : undefined;
  const started: string[] = [];
  const dropped: string[] = [];
  const lowPriority: string[] = [];
  const headRelease = defer<void>();
  const reference = defer<Reference>();
  const queue = new RunQueue(options.slots ?? 2);
  const baselineRun = queue.slot(() => reference.promise);
  const verifier = new Verifier({
    executor: executor(started, headRelease.promise, dropped, options.interfere, lowPriority, hold), reference: reference.promise, fullCommand: { command: () => 'all' }, staged: true,
    requiredRuns: 2, languageId: 'javascript', signal: new AbortController().signal, slot: queue.slot, idleSlot: queue.idle,
  });
  const baselineDone = async () => {
    reference.resolve(referenceWith(options.limit));
    await baselineRun;
  };
  return { started, dropped, lowPriority, entered, verifier, baselineDone, releaseHead: () => headRelease.resolve(), openRuns: () => runsOpen.resolve() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a head start beside the baseline', () => {
  it("starts the first candidate's full run on the idle slot, and counts it as the full run once its failing tests pass", async () => {
    const { started, lowPriority, verifier, baselineDone, releaseHead } = request();
    verifier.headStart(0, 'x', 'good', 'good');
    await turn();
    assert.deepEqual(started, [], 'waiting for release: started, not finished');
    releaseHead();
    await turn();
    assert.deepEqual(started, ['c0h'], 'ran before the baseline was in');
    assert.deepEqual(lowPriority, ['c0h'], 'at the lowest CPU priority, on what the baseline leaves');
    await baselineDone();
    const outcome = await verifier.verify(0, 'x', 'good', 'good');
    assert.deepEqual(started, ['c0h', 'c0f'], 'no second full run');
    assert.deepEqual(outcome?.runs.map((r) => r.status), ['pass', 'pass']);
    assert.equal(outcome?.evidence.stage, 'full');
    assert.equal(outcome?.evidence.tests?.passed, 2, "the full run's evidence");
    assert.equal(describeRuns({ runs: outcome?.runs ?? [], flaky: false, confirmedOn: outcome?.evidence.confirmedOn }), 'full suite passed; fixed tests passed 2/2 runs');
  });

  it('is dropped unread when the candidate fails its failing tests: the verdict is the one stage 1 gives', async () => {
    const { started, dropped, verifier, baselineDone } = request();
    verifier.headStart(0, 'x', 'bad', 'bad');
    await baselineDone();
    const outcome = await verifier.verify(0, 'x', 'bad', 'bad');
    await turn();
    assert.deepEqual(dropped, ['c0h']);
    assert.deepEqual(started, ['c0f']);
    assert.equal(outcome?.evidence.stage, 'failing-tests');
    assert.deepEqual(outcome?.runs.map((r) => r.status), ['fail']);
  });

  it("is kept until it runs past a full run's limit from its own start, however long stage 1 starves it; then dropped, and the full run starts again", async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { started, dropped, verifier, baselineDone } = request({ limit: { ms: 60_000, basis: "5× the baseline's 12 s" } });
    verifier.headStart(0, 'x', 'good', 'good');
    await baselineDone();
    await turn();
    t.mock.timers.tick(59_000);
    await turn();
    assert.deepEqual(dropped, [], 'well past twice the baseline, under the limit');
    t.mock.timers.tick(1_000);
    await turn();
    assert.deepEqual(dropped, ['c0h']);
    const outcome = await verifier.verify(0, 'x', 'good', 'good');
    assert.deepEqual(started, ['c0f', 'c0'], 'stage 1, then a full run of its own');
    assert.deepEqual(outcome?.runs.map((r) => r.status), ['pass', 'pass']);
  });

  it('counts only a pass of it: one that failed ran at the lowest priority, so a run of its own decides', async () => {
    const { started, verifier, baselineDone, releaseHead } = request();
    verifier.headStart(0, 'x', 'breaker', 'breaker');
    releaseHead();
    await baselineDone();
    const outcome = await verifier.verify(0, 'x', 'breaker', 'breaker');
    assert.deepEqual(started, ['c0h', 'c0f', 'c0'], 'stage 1 passed; the failed head start is run again');
    assert.equal(outcome?.evidence.stage, 'full');
    assert.deepEqual(outcome?.evidence.tests?.broke, ['b']);
  });

  it('gives its slot back once the baseline is in: stage 1 takes both slots while it runs on', async () => {
    const { started, dropped, entered, verifier, baselineDone, releaseHead, openRuns } = request({ holdRuns: true });
    verifier.headStart(0, 'x', 'good', 'good');
    await baselineDone();
    // The head start runs on (releaseHead is not called yet), and so do the stage-1 runs that start.
    const others = [1, 2].map((i) => verifier.verify(i, 'x', 'bad', 'bad'));
    for (let i = 0; i < 5; i++) await turn();
    assert.deepEqual(entered, ['c1f', 'c2f'], 'two stage-1 runs at once beside the head start');
    openRuns();
    await Promise.all(others);
    releaseHead();
    const outcome = await verifier.verify(0, 'x', 'good', 'good');
    assert.deepEqual(dropped, []);
    assert.deepEqual(started, ['c1f', 'c2f', 'c0h', 'c0f'], 'the head start is still its full run');
    assert.deepEqual(outcome?.runs.map((r) => r.status), ['pass', 'pass']);
  });

  it('takes a slot again once its candidate passes its failing tests while it runs: it is that full run now', async () => {
    const { entered, verifier, baselineDone, releaseHead, openRuns } = request({ holdRuns: true });
    verifier.headStart(0, 'x', 'good', 'good');
    await baselineDone();
    const first = verifier.verify(0, 'x', 'good', 'good');
    for (let i = 0; i < 5; i++) await turn();
    const others = [1, 2].map((i) => verifier.verify(i, 'x', 'bad', 'bad'));
    for (let i = 0; i < 5; i++) await turn();
    assert.deepEqual(entered, ['c1f'], "one slot left for stage 1: the other is candidate #1's full run");
    releaseHead();
    assert.deepEqual((await first)?.runs.map((r) => r.status), ['pass', 'pass']);
    for (let i = 0; i < 5; i++) await turn();
    assert.deepEqual(entered, ['c1f', 'c2f'], 'its slot free again');
    openRuns();
    await Promise.all(others);
  });

  it('one per idle slot: a second candidate, with both slots held, waits for the baseline as before', async () => {
    const { started, verifier, baselineDone, releaseHead } = request();
    verifier.headStart(0, 'x', 'bad', 'bad');
    verifier.headStart(1, 'x', 'good', 'good');
    releaseHead();
    await turn();
    assert.deepEqual(started, ['c0h']);
    await baselineDone();
    await Promise.all([verifier.verify(0, 'x', 'bad', 'bad'), verifier.verify(1, 'x', 'good', 'good')]);
    assert.ok(started.includes('c1'), 'the second candidate has a full run of its own');
    assert.ok(!started.includes('c1h'));
  });

  it('never starts without an idle slot, after the baseline, where runs can reach each other, or for an edit to how the tests run', async () => {
    const cases: Array<{ why: string; made: ReturnType<typeof request>; replacement?: string; afterBaseline?: boolean }> = [
      { why: 'one slot, the baseline holds it', made: request({ slots: 1 }) },
      { why: 'the baseline is in', made: request(), afterBaseline: true },
      { why: 'runs can interfere', made: request({ interfere: true }) },
      { why: 'a test-run edit', made: request(), replacement: 'process.exit(0)' },
    ];
    for (const { why, made, replacement = 'good', afterBaseline } of cases) {
      made.releaseHead();
      if (afterBaseline) await made.baselineDone();
      made.verifier.headStart(0, 'x', replacement, replacement);
      await turn();
      assert.deepEqual(made.started, [], why);
      if (!afterBaseline) await made.baselineDone();
    }
  });
});
