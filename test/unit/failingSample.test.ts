// Stage 1 starts with the failing tests of one file where they span several: a wrong candidate ends after one file,
// a right one goes on to every failing test. Fake runs (helpers/fakeRuns: the order and the verdicts), the real
// Verifier and queue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunQueue } from '../../src/core/execution/runQueue';
import type { TestExecutor } from '../../src/core/execution/executor';
import { Verifier } from '../../src/core/verification/verifier';
import { failingSample } from '../../src/core/verification/stagedVerification';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';
import type { TestResult } from '../../src/core/testResults/types';
import { scriptedExecutor, selectingAdapter } from './helpers/fakeRuns';

const adapter = selectingAdapter;
const baseline: TestResult[] = [
  { id: 'test/x.test.js > a1', outcome: 'failed' },
  { id: 'test/y.test.js > b1', outcome: 'failed' },
  { id: 'test/x.test.js > a2', outcome: 'failed' },
  { id: 'test/y.test.js > ok', outcome: 'passed' },
];
const plan: PerTestPlan = { adapter, base: 'node --test', baseline, failing: baseline.filter((t) => t.outcome === 'failed').map((t) => t.id), baselineRan: 4 };

/** 'good' passes everything; 'half' fixes x's tests only; anything else fixes none. */
function executor(started: string[]): TestExecutor {
  const passes = (text: string, id: string) => id.endsWith('ok') || text === 'good' || (text === 'half' && id.startsWith('test/x'));
  return scriptedExecutor(started, baseline.map((t) => t.id), passes);
}

describe('the failing tests of one file first', () => {
  it('picks the file with the most failing tests, and judges a run of it alone', () => {
    const sample = failingSample(plan);
    assert.deepEqual(sample?.failing, ['test/x.test.js > a1', 'test/x.test.js > a2']);
    assert.deepEqual(sample?.baseline.map((t) => t.id), ['test/x.test.js > a1', 'test/x.test.js > a2', 'test/y.test.js > ok'], "y's failing test is not expected in it");
  });

  it('takes a pytest node id\'s file, not each test, for the file', () => {
    const failing = ['tests/test_a.py::test_one', 'tests/test_b.py::TestB::test_two', 'tests/test_a.py::test_three[1]'];
    const pytestPlan: PerTestPlan = { ...plan, baseline: failing.map((id) => ({ id, outcome: 'failed' as const })), failing };
    assert.deepEqual(failingSample(pytestPlan)?.failing, ['tests/test_a.py::test_one', 'tests/test_a.py::test_three[1]']);
    assert.equal(failingSample({ ...pytestPlan, failing: ['tests/test_a.py::test_one', 'tests/test_a.py::test_three[1]'] }), undefined);
  });

  it('is none when one file holds every failing test', () => {
    assert.equal(failingSample({ ...plan, failing: ['test/x.test.js > a1', 'test/x.test.js > a2'] }), undefined);
  });

  it('ends a candidate that still fails them after that one run; one that passes them runs every failing test, then the full suite', async () => {
    const started: string[] = [];
    const logged: string[] = [];
    const logger = { trace() {}, info: (m: string) => void logged.push(m), warn() {}, error() {} };
    const queue = new RunQueue(1);
    const v = new Verifier({
      executor: executor(started), reference: Promise.resolve({ plan }), fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 1, languageId: 'javascript',
      signal: new AbortController().signal, slot: queue.slot, logger,
    });
    const [bad, half, good] = await Promise.all(['bad', 'half', 'good'].map((text, i) => v.verify(i, 'x', text, text)));
    assert.deepEqual(bad?.runs.map((r) => r.status), ['fail']);
    assert.match(bad?.runs[0].reason ?? '', /still failing: test\/x\.test\.js > a1/);
    assert.equal(bad?.evidence.stage, 'failing-tests');
    assert.deepEqual(half?.runs.map((r) => r.status), ['fail']);
    assert.match(half?.runs[0].reason ?? '', /still failing: test\/y\.test\.js > b1/);
    assert.deepEqual(good?.runs.map((r) => r.status), ['pass']);
    assert.equal(good?.evidence.tests?.fixed.length, 3);
    // Survivors first: a candidate past its sample runs all the failing tests before the next candidate's sample.
    assert.deepEqual(started.filter((l) => l.startsWith('c0')), ['c0f0']);
    assert.deepEqual(started.filter((l) => l.startsWith('c1')), ['c1f0', 'c1f']);
    assert.deepEqual(started.filter((l) => l.startsWith('c2')), ['c2f0', 'c2f', 'c2']);
    assert.equal(logged.filter((m) => m.startsWith('stage 1 starts with the failing tests of test/x.test.js (2 of 3')).length, 1, 'said once');
  });

  it('runs them all at once, that file\'s first, where the runner stops at the first failure in order (mocha, pytest)', async () => {
    const started: string[] = [];
    const commands: string[] = [];
    const logged: string[] = [];
    const logger = { trace() {}, info: (m: string) => void logged.push(m), warn() {}, error() {} };
    const scripted = executor(started);
    const recording: TestExecutor = { ...scripted, run: (fileText, label, options) => (commands.push(`${label} ${options?.command?.('/report') ?? ''}`), scripted.run(fileText, label, options)) };
    const mochaPlan: PerTestPlan = { ...plan, adapter: { ...adapter, name: 'mocha' }, base: 'mocha test/', failing: ['test/y.test.js > b1', 'test/x.test.js > a1', 'test/x.test.js > a2'] };
    const queue = new RunQueue(1);
    const v = new Verifier({
      executor: recording, reference: Promise.resolve({ plan: mochaPlan }), fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 1, languageId: 'javascript',
      signal: new AbortController().signal, slot: queue.slot, logger,
    });
    const [bad, half, good] = await Promise.all(['bad', 'half', 'good'].map((text, i) => v.verify(i, 'x', text, text)));
    assert.deepEqual([bad, half, good].map((c) => c?.runs.map((r) => r.status)), [['fail'], ['fail'], ['pass']]);
    assert.match(half?.runs[0].reason ?? '', /still failing: test\/y\.test\.js > b1/);
    assert.deepEqual(started, ['c0f', 'c1f', 'c2f', 'c2'], 'one stage-1 run each, no run of the file alone');
    assert.deepEqual(commands.slice(0, 3).map((c) => c.slice(c.indexOf(' ') + 1)), Array(3).fill('only:test/x.test.js > a1,test/x.test.js > a2,test/y.test.js > b1'), "x's tests first");
    assert.equal(logged.filter((m) => m.startsWith('stage 1 runs the failing tests of test/x.test.js first (2 of 3')).length, 1, 'said once');
  });

  it('catches a variant of the strength check on that run alone', async () => {
    const started: string[] = [];
    const queue = new RunQueue(1);
    const v = new Verifier({
      executor: executor(started), reference: Promise.resolve({ plan }), fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 1, languageId: 'javascript',
      signal: new AbortController().signal, slot: queue.slot,
    });
    assert.equal(await v.tryVariant('v1', 'bad', 5000), 'caught');
    assert.deepEqual(started, ['v1f0']);
    assert.equal(await v.tryVariant('v2', 'good', 5000), 'survived');
    assert.deepEqual(started, ['v1f0', 'v2f0', 'v2f', 'v2']);
  });
});
