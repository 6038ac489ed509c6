// Survivors first: a run that can verify a candidate starts before other candidates' first runs; a stop leaves
// candidates that passed their failing tests reported as such. Orders of events only, never timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunPriority, RunQueue } from '../../src/core/execution/runQueue';
import { Verifier } from '../../src/core/verification/verifier';
import type { Reference } from '../../src/core/verification/reference';
import type { TestExecutor } from '../../src/core/execution/executor';
import type { TestResult } from '../../src/core/testResults/types';
import { describeRuns, describeUnfinished } from '../../src/core/verification/evidence';
import { CandidatePool } from '../../src/core/engine/candidatePool';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { fixJson } from '../../src/cli/fixReport';
import { outcomeOf } from '../../src/host/model/outcome';
import type { FixResult } from '../../src/core/contract/fixRequest';
import { repoRoot } from './helpers/paths';
import { scriptedExecutor, selectingAdapter } from './helpers/fakeRuns';

/** A promise and its resolver, so that a test decides when each run ends. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('RunQueue', () => {
  it('starts waiting runs by priority, then in arrival order', async () => {
    const queue = new RunQueue(1);
    const started: string[] = [];
    const blocker = gate();
    const hold = queue.slot(async () => {
      started.push('busy');
      await blocker.promise;
    });
    const runs = [
      queue.slot(async () => void started.push('c1 first'), RunPriority.first),
      queue.slot(async () => void started.push('c2 first'), RunPriority.first),
      queue.slot(async () => void started.push('c0 full'), RunPriority.full),
      queue.slot(async () => void started.push('c0 confirm'), RunPriority.confirm),
      queue.slot(async () => void started.push('c3 first')),
      queue.slot(async () => void started.push('c4 full'), RunPriority.full),
    ];
    assert.equal(queue.pending, 6);
    blocker.open();
    await Promise.all([hold, ...runs]);
    assert.deepEqual(started, ['busy', 'c0 confirm', 'c0 full', 'c4 full', 'c1 first', 'c2 first', 'c3 first']);
  });

  it('never runs more than its slots at once', async () => {
    const queue = new RunQueue(2);
    let active = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 8 }, (_, i) => queue.slot(async () => {
      most = Math.max(most, ++active);
      await new Promise((resolve) => setImmediate(resolve));
      active--;
    }, i % 3)));
    assert.equal(most, 2);
  });

  it('starts a wide run only when all its slots are free, and holds them all while it runs', async () => {
    const queue = new RunQueue(2);
    const events: string[] = [];
    const narrow = gate();
    const wide = gate();
    const first = queue.slot(async () => {
      events.push('narrow starts');
      await narrow.promise;
      events.push('narrow ends');
    });
    const whole = queue.slot(async () => {
      events.push('wide starts');
      await wide.promise;
      events.push('wide ends');
    }, RunPriority.full, 2);
    // A later narrow run of the same priority waits behind the wide one even though a slot is free.
    const later = queue.slot(async () => void events.push('later starts'), RunPriority.first);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['narrow starts']);
    assert.equal(queue.pending, 2);
    narrow.open();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['narrow starts', 'narrow ends', 'wide starts']);
    wide.open();
    await Promise.all([whole, later]);
    assert.deepEqual(events, ['narrow starts', 'narrow ends', 'wide starts', 'wide ends', 'later starts']);
  });

  it('lets a run of a higher priority pass a wide run waiting for its slots', async () => {
    const queue = new RunQueue(2);
    const events: string[] = [];
    const busy = gate();
    const hold = queue.slot(async () => {
      await busy.promise;
    });
    const whole = queue.slot(async () => void events.push('wide'), RunPriority.first, 2);
    const confirm = queue.slot(async () => void events.push('confirm'), RunPriority.confirm);
    await confirm;
    assert.deepEqual(events, ['confirm']);
    busy.open();
    await Promise.all([hold, whole]);
    assert.deepEqual(events, ['confirm', 'wide']);
  });

  it('gives a slot back when the run\'s heldUntil settles, once, while the run goes on', async () => {
    const queue = new RunQueue(2);
    const events: string[] = [];
    const baseline = gate();
    const head = gate();
    const baselineRun = queue.slot(async () => void (await baseline.promise));
    const headRun = queue.slot(async () => {
      events.push('head starts');
      await head.promise;
      events.push('head ends');
    }, RunPriority.first, 1, baseline.promise);
    const stageOneEnds = gate();
    const stageOne = [1, 2].map((i) => queue.slot(async () => {
      events.push(`c${i}f`);
      await stageOneEnds.promise;
    }));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['head starts'], 'both slots held while the baseline runs');
    baseline.open();
    await baselineRun;
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['head starts', 'c1f', 'c2f'], 'the baseline\'s slot and the head start\'s, while it runs on');
    stageOneEnds.open();
    await Promise.all(stageOne);
    head.open();
    await headRun;
    await new Promise((resolve) => setImmediate(resolve));
    let most = 0;
    let active = 0;
    await Promise.all(Array.from({ length: 6 }, () => queue.slot(async () => {
      most = Math.max(most, ++active);
      await new Promise((resolve) => setImmediate(resolve));
      active--;
    })));
    assert.equal(most, 2, 'its end gave back nothing more: still two slots');
  });

  it('takes a width beyond its slots as all of them', async () => {
    const queue = new RunQueue(2);
    await queue.slot(async () => undefined, RunPriority.first, 8);
    let ran = false;
    await queue.slot(async () => void (ran = true));
    assert.equal(ran, true);
  });
});

const adapter = selectingAdapter;
const baseline: TestResult[] = [{ id: 'a', outcome: 'failed' }, { id: 'b', outcome: 'passed' }];
const reference: Promise<Reference> = Promise.resolve({ plan: { adapter, base: 'node --test', baseline, failing: ['a'], baselineRan: 2 } });

/** Every candidate whose text is 'good' passes; the others fail `a`. Runs end in the order they start, one at a time. */
function executor(started: string[], abort?: { after: string; controller: AbortController }): TestExecutor {
  return scriptedExecutor(started, ['a', 'b'], (text, id) => text === 'good' || id !== 'a', abort);
}

function verifier(run: TestExecutor, signal: AbortSignal, requiredRuns: number): Verifier {
  const queue = new RunQueue(1);
  return new Verifier({ executor: run, reference, fullCommand: undefined, staged: true, requiredRuns, languageId: 'javascript', signal, slot: queue.slot });
}

describe('Verifier with survivors first', () => {
  it('a candidate that passes its failing tests runs its full and confirmation runs before the other candidates\' first runs', async () => {
    const started: string[] = [];
    const v = verifier(executor(started), new AbortController().signal, 3);
    const texts = ['bad', 'good', 'bad', 'bad', 'bad'];
    const outcomes = await Promise.all(texts.map((text, i) => v.verify(i, 'x', text, text)));
    assert.equal(outcomes[1]?.runs.every((r) => r.status === 'pass'), true);
    // c1's stage 1 was queued second; its full run (c1) and confirmation (c1r2) jump the three first runs behind it.
    // Stage 1 itself is the first confirmation (the fixed tests alone), so three runs are c1f, c1 and c1r2.
    assert.deepEqual(started, ['c0f', 'c1f', 'c1', 'c1r2', 'c2f', 'c3f', 'c4f']);
    assert.equal(outcomes[1]?.runs.length, 3);
  });

  it('counts stage 1 as the first cheap confirmation: two runs need a full run and nothing more', async () => {
    const started: string[] = [];
    const v = verifier(executor(started), new AbortController().signal, 2);
    const outcome = await v.verify(0, 'x', 'good', 'good');
    assert.deepEqual(started, ['c0f', 'c0']);
    assert.deepEqual(outcome?.runs.map((r) => r.status), ['pass', 'pass']);
    assert.deepEqual(outcome?.evidence.confirmedOn, ['a'], 'the fixed tests passed 2/2 runs');
    assert.equal(describeRuns({ runs: outcome?.runs ?? [], flaky: false, confirmedOn: outcome?.evidence.confirmedOn }), 'full suite passed; fixed tests passed 2/2 runs');
  });

  it('a stop after the failing tests passed leaves the candidate reported as "full run not reached"', async () => {
    const started: string[] = [];
    const controller = new AbortController();
    const v = verifier(executor(started, { after: 'c1f', controller }), controller.signal, 1);
    const texts = ['bad', 'good', 'bad'];
    const outcomes = await Promise.all(texts.map((text, i) => v.verify(i, 'x', text, text)));
    assert.equal(outcomes[1], undefined, 'no verdict for the cut-short candidate');
    assert.deepEqual(v.passedFailingTestsOnly(1)?.fixed, ['a']);
    assert.equal(v.passedFailingTestsOnly(0), undefined, 'a candidate that failed its failing tests is no survivor');
    assert.equal(describeUnfinished([{ index: 1 }]), '#2 passed the failing tests; full run not reached');
    assert.equal(describeUnfinished([{ index: 0 }, { index: 3 }, { index: 4 }]), '#1, #4 and #5 passed the failing tests; full run not reached');
  });
});

describe('a request the total timeout ended', () => {
  const result: FixResult = {
    relativePath: 'f.js', testCommand: 'node --test', baseline: { status: 'fail', durationMs: 1, exitCode: 1, output: '', stdout: '', stderr: '' }, baselinePassed: false,
    perTest: true, failingTests: ['a'], candidates: [], verified: [], samples: 1, passed: 0, lost: [],
    stoppedEarly: { kind: 'totalTimeout', message: 'total timeout (300 s)' },
    passedFailingTestsOnly: [{ index: 0, label: 'swap < for <=', replacement: 'x <= hi', diff: '--- a/f.js\n+++ b/f.js\n', fixed: ['a'] }],
    durationMs: 1, originalText: 'x < hi', start: 0, end: 6,
  };

  it('--json lists the candidates that passed the failing tests, as the schema documents', () => {
    const json = JSON.parse(JSON.stringify(fixJson({ ...result, strengthCutShort: { message: 'total timeout (300 s)', unchecked: [2] } }, [1, 1], 1)));
    assert.deepEqual(json.strengthCutShort, { message: 'total timeout (300 s)', unchecked: [2] });
    assert.deepEqual(json.passedFailingTestsOnly, [{ ...result.passedFailingTestsOnly?.[0], number: 1, note: 'passed the failing tests; full run not reached' }]);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(repoRoot, 'docs', 'schemas', 'fix.schema.json'), 'utf8')));
    assert.ok(validate(json), JSON.stringify(validate.errors));
    // A fix the strength budget did not start keeps its own reason, by candidate index.
    const budget = { message: "the strength check's budget (6 s) could not decide a fix: deciding #1 takes about 15 s", unchecked: [0, 2], kind: 'budget' as const, reasons: { 2: "the strength check's budget (6 s) could not decide it: deciding #3 takes about 14 s" } };
    const withReasons = JSON.parse(JSON.stringify(fixJson({ ...result, strengthCutShort: budget }, [1, 1], 1)));
    assert.deepEqual(withReasons.strengthCutShort.reasons, { 2: budget.reasons[2] });
    assert.ok(validate(withReasons), JSON.stringify(validate.errors));
  });

  it('the editor\'s message names them', () => {
    const outcome = outcomeOf(result, { location: 'f.js:1', alreadyListed: false, documentChanged: false, idle: true });
    assert.match(outcome.message?.text ?? '', /Stopped early: total timeout \(300 s\); #1 passed the failing tests; full run not reached \(not verified\)\./);
  });
});

describe('cheap confirmation', () => {
  const commands: string[] = [];
  function recording(): TestExecutor {
    const inner = executor([]);
    return { ...inner, runsCanInterfere: true, run: async (fileText, label, options) => (commands.push(`${label} ${options?.command?.('/report') ?? 'all'}`), inner.run(fileText, label, options)) };
  }

  it('repeats the fixed tests, not the whole suite, and says so', async () => {
    commands.length = 0;
    const v = new Verifier({ executor: recording(), reference, fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 3, languageId: 'javascript', signal: new AbortController().signal, slot: new RunQueue(1).slot });
    const outcome = await v.verify(0, 'x', 'good', 'good');
    assert.ok(outcome);
    assert.deepEqual(commands, ['c0f only:a', 'c0 all', 'c0r2 only:a', 'c0r3 only:a']);
    assert.deepEqual(outcome.evidence.confirmedOn, ['a']);
    assert.equal(outcome.evidence.tests?.passed, 2, 'the evidence is the full run\'s, not a confirmation\'s');
    const pool = new CandidatePool({ relativePath: 'f.js', originalText: 'bad', start: 0, end: 3, requiredRuns: 3 });
    const [c] = pool.complete({ index: 0, replacement: 'good' }, outcome.runs, outcome.evidence);
    assert.equal(c.verified, true);
    assert.equal(describeRuns(c), 'full suite passed; fixed tests passed 3/3 runs');
  });

  it('a full run that breaks another test is not called flaky because the fixed tests passed beside it', async () => {
    // 'breaker' fixes a and breaks b: its full run fails, its cheap confirmation (a alone) passes.
    const breaking: TestExecutor = {
      ...executor([]),
      run: async (_fileText, _label, options) => {
        const command = options?.command?.('/report') ?? 'all';
        const ids = command.startsWith('only:') ? command.slice(5).split(',') : ['a', 'b'];
        const report = JSON.stringify(ids.map((id) => ({ id, outcome: id === 'b' ? 'failed' : 'passed' })));
        const failed = ids.includes('b');
        return { verdict: { status: failed ? 'fail' : 'pass', durationMs: 1, exitCode: failed ? 1 : 0, output: '', stdout: '', stderr: '' }, report, cwd: '/' };
      },
    };
    const v = new Verifier({ executor: breaking, reference, fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 2, languageId: 'javascript', signal: new AbortController().signal, slot: new RunQueue(2).slot });
    const outcome = await v.verify(0, 'x', 'breaker', 'breaker');
    assert.ok(outcome);
    assert.deepEqual(outcome.runs.map((r) => r.status), ['fail'], 'only the full run counts');
    const pool = new CandidatePool({ relativePath: 'f.js', originalText: 'bad', start: 0, end: 3, requiredRuns: 2 });
    const [c] = pool.complete({ index: 0, replacement: 'breaker' }, outcome.runs, outcome.evidence);
    assert.equal(c.verified, false);
    assert.equal(c.flaky ?? false, false);
  });

  it('cheapConfirmation: false repeats the whole command', async () => {
    commands.length = 0;
    const v = new Verifier({ executor: recording(), reference, fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 2, languageId: 'javascript', signal: new AbortController().signal, slot: new RunQueue(1).slot, cheapConfirmation: false });
    const outcome = await v.verify(0, 'x', 'good', 'good');
    assert.deepEqual(commands, ['c0f only:a', 'c0 all', 'c0r2 all']);
    assert.equal(outcome?.evidence.confirmedOn, undefined);
  });
});
