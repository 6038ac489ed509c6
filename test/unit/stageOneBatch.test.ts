// How shared stage-1 processes are planned and read back (stageOneBatch.ts), with a fake process that plays the
// rounds the hooks would: which candidates share, what runs again and where, and what a round's verdict is.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ExecutedRun, RunOptions } from '../../src/core/execution/executor';
import { silentLogger } from '../../src/core/base/logger';
import { StageOneBatch } from '../../src/core/verification/stageOneBatch';
import type { SharedRound, SharedStart } from '../../src/core/verification/stageOneBatch';
import { JEST_ROUNDS, MOCHA_ROUNDS, PYTEST_ROUNDS, TAPE_ROUNDS, VITEST_ROUNDS, roundsDialectOf } from '../../src/core/verification/roundDialects';
import { tapeAdapter } from '../../src/core/testResults/tape';
import { avaAdapter } from '../../src/core/testResults/ava';
import { vitestAdapter, vitestConfigAdapter } from '../../src/core/testResults/vitest';
import { jestAdapter, jestJsonAdapter, withJestGuard } from '../../src/core/testResults/jest';
import { ROUNDS_OVERRUN_FILE, ROUNDS_PLAN_FILE, ROUND_MARK, STOPPED_MARK, STRUCTURAL_STOPS } from '../../src/core/testResults/sharedRounds';
import type { RoundStop } from '../../src/core/testResults/sharedRounds';

const folders: string[] = [];
after(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A process as the mocha hook runs one: each candidate's text says what its round does. 'pass' and 'fail' finish;
 * 'global' finishes and ends the process (a new global); 'loop' runs past its limit (the watchdog's file); 'crash'
 * ends the process mid-round; 'broken' cannot load; with 'silent' anywhere, the process leaves no report (the hook
 * never ran its rounds). Records each process's candidates.
 */
function fakeProcess(processes: string[][], stopsAfterPass: boolean[] = []) {
  return async (fileText: string, _label: string, options: RunOptions): Promise<ExecutedRun> => {
    const files = options.outputFiles ?? {};
    const plan = JSON.parse(files[ROUNDS_PLAN_FILE] ?? 'null') as { first: string; texts: string[]; stopAfterPass?: boolean } | null;
    const texts = plan ? [files[plan.first], ...plan.texts.map((name) => files[name])] : [fileText];
    processes.push(texts);
    stopsAfterPass.push(plan?.stopAfterPass === true);
    const outputDir = mkdtempSync(join(tmpdir(), 'vf-batch-'));
    folders.push(outputDir);
    const rounds: object[] = [];
    let stopped: RoundStop | undefined;
    let detail: string | undefined;
    for (const [i, text] of texts.entries()) {
      if (text === 'loop') {
        writeFileSync(join(outputDir, ROUNDS_OVERRUN_FILE), `${i} 5200`);
        break;
      }
      if (text === 'crash') {
        rounds.push({ passes: [], failures: [], pending: [] });
        break;
      }
      if (text === 'broken') {
        stopped = 'unloadable';
        detail = 'Unexpected token';
        break;
      }
      const failed = text !== 'pass';
      rounds.push({ passes: failed ? [] : [{ title: 't' }], failures: failed ? [{ title: 't' }] : [], pending: [], ms: 10 });
      if (text === 'global') {
        stopped = 'global';
        break;
      }
      if (!failed && plan?.stopAfterPass && i < texts.length - 1) {
        stopped = 'firstPass';
        break;
      }
    }
    const verdict = { status: 'fail' as const, exitCode: 1, durationMs: 500, output: '', stdout: '', stderr: '' };
    if (texts.includes('silent')) return { verdict, outputDir };
    return { verdict, report: JSON.stringify(stopped ? { rounds, stopped, detail } : { rounds }), outputDir };
  };
}

type Process = (fileText: string, label: string, options: RunOptions) => Promise<ExecutedRun>;

/** The request's slots as the batch sees them: `parallel` processes at a time, each told what to run when it starts. */
function slots(parallel: number, run: Process) {
  let free = parallel;
  const queue: Array<() => void> = [];
  const release = () => { const next = queue.shift(); if (next) next(); else free++; };
  return async (start: () => SharedStart | undefined): Promise<ExecutedRun | undefined> => {
    // A free slot starts the run at once, in the same turn, as the request's run queue does.
    if (free > 0) free--;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      const what = start();
      return what ? await run(what.fileText, what.label, what.options) : undefined;
    } finally {
      release();
    }
  };
}

/** Every candidate's stage 1 through one batch at once; what each got (undefined: run on its own). */
async function stageOne(texts: readonly string[], parallel = 2, fullRunUnderway: readonly number[] = []): Promise<{ results: Array<SharedRound | undefined>; processes: string[][]; stopsAfterPass: boolean[]; log: string[] }> {
  const processes: string[][] = [];
  const stopsAfterPass: boolean[] = [];
  const log: string[] = [];
  const batch = new StageOneBatch(
    { relativePath: 'src/calc.js', parallel, run: slots(parallel, fakeProcess(processes, stopsAfterPass)), logger: { ...silentLogger, info: (line) => log.push(line) } },
    MOCHA_ROUNDS, { command: () => 'mocha test/' }, 5000, "5× the baseline's 1 s",
  );
  const results = await Promise.all(texts.map((text, i) => batch.run(text, `c${i}f`, `#${i + 1}`, fullRunUnderway.includes(i))));
  return { results, processes, stopsAfterPass, log };
}

const statusOf = (round: SharedRound | undefined) => (round ? `${round.run.verdict.status}${round.afterOthers ? ' after others' : ''}` : 'alone');

describe('shared stage 1', () => {
  it('deals the candidates round-robin to one process per slot, best-ranked first; only a first round counts as run alone', async () => {
    const { results, processes } = await stageOne(['fail', 'fail', 'fail', 'fail', 'pass']);
    assert.deepEqual(processes, [['fail', 'fail', 'pass'], ['fail', 'fail']]);
    assert.deepEqual(results.map(statusOf), ['fail', 'fail', 'fail after others', 'fail after others', 'pass after others']);
  });

  it('lets candidates that come while the processes wait for their slots join them: as few processes as the slots allow', async () => {
    const processes: string[][] = [];
    const held: Array<() => void> = [];
    const run = fakeProcess(processes);
    // Slots that stay busy (with other candidates' full runs, say) until the test frees them.
    const busy = (start: () => SharedStart | undefined) => new Promise<ExecutedRun | undefined>((resolve) => held.push(() => {
      const what = start();
      resolve(what ? run(what.fileText, what.label, what.options) : undefined);
    }));
    const batch = new StageOneBatch({ relativePath: 'src/calc.js', parallel: 2, run: busy }, MOCHA_ROUNDS, { command: () => 'mocha test/' }, 5000);
    const early = ['fail', 'fail', 'fail'].map((text, i) => batch.run(text, `a${i}f`, `#${i + 1}`));
    await new Promise((resolve) => setImmediate(resolve));
    const late = ['fail', 'fail', 'fail', 'pass'].map((text, i) => batch.run(text, `b${i}f`, `#${i + 4}`));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(held.length, 2, 'one process for the first three, a second once four more wait');
    held.forEach((grant) => grant());
    const results = await Promise.all([...early, ...late]);
    assert.deepEqual(processes.map((p) => p.length), [4, 3], 'seven candidates in two processes (dealt as they came: three)');
    assert.ok(results.every((r) => r !== undefined));
  });

  it('ends a process after the request\'s first pass, so that it need not wait for the other rounds; later passes go on', async () => {
    const { results, processes, stopsAfterPass, log } = await stageOne(['pass', 'fail', 'fail', 'pass', 'fail'], 1);
    assert.deepEqual(processes, [['pass', 'fail', 'fail', 'pass', 'fail'], ['fail', 'fail', 'pass', 'fail']]);
    assert.deepEqual(stopsAfterPass, [true, false]);
    assert.deepEqual(results.map(statusOf), ['pass', 'fail', 'fail after others', 'pass after others', 'fail after others']);
    assert.match(log.join('\n'), /it ended after 1: a candidate passed, the first of the request to/);
  });

  it('does not end a process at its first pass where a candidate of it has its full run underway (a head start)', async () => {
    const { results, processes, stopsAfterPass } = await stageOne(['pass', 'fail', 'pass', 'fail'], 1, [0]);
    assert.deepEqual(processes, [['pass', 'fail', 'pass', 'fail']], 'one process, all its rounds');
    assert.deepEqual(stopsAfterPass, [false]);
    assert.deepEqual(results.map(statusOf), ['pass', 'fail after others', 'pass after others', 'fail after others']);
  });

  it('does not end any process at its first pass while a head-started candidate waits for its round in another', async () => {
    // Two processes: #1 (head-started) and #3 in the first, #2 and #4 in the second. #2's pass would end the second
    // process and start a third for #4, though #1 is the likelier first fix and needs no runs of its own.
    const { processes, stopsAfterPass } = await stageOne(['fail', 'pass', 'fail', 'fail'], 2, [0]);
    assert.deepEqual(processes, [['fail', 'fail'], ['pass', 'fail']], 'two processes, each with all its rounds');
    assert.deepEqual(stopsAfterPass, [false, false]);
  });

  it('runs the candidates after a stop in another shared process, and the one a round could not load on its own', async () => {
    const { results, processes, log } = await stageOne(['global', 'fail', 'fail', 'broken', 'fail', 'fail'], 1);
    assert.deepEqual(processes[0], ['global', 'fail', 'fail', 'broken', 'fail', 'fail']);
    assert.deepEqual(processes[1], ['fail', 'fail', 'broken', 'fail', 'fail'], 'the rest share again');
    assert.deepEqual(processes[2], ['fail', 'fail'], 'the unloadable one is left out');
    assert.deepEqual(results.map(statusOf), ['fail', 'fail', 'fail after others', 'alone', 'fail', 'fail after others']);
    assert.match(log.join('\n'), /stage 1 of candidates #1, #2, #3, #4, #5, #6 shared one mocha process \(0\.5 s\), one round each; it ended after 1: a candidate left a new global/);
  });

  it('makes a first round that ran past its limit the candidate\'s timeout, and runs a later one again on its own', async () => {
    const first = await stageOne(['loop', 'fail', 'pass'], 1);
    assert.equal(first.results[0]?.run.verdict.status, 'timeout');
    assert.equal(first.results[0]?.run.verdict.reason, "timed out after 5 s (5× the baseline's 1 s)");
    assert.deepEqual(first.results.slice(1).map(statusOf), ['fail', 'pass after others']);
    const later = await stageOne(['fail', 'loop', 'pass'], 1);
    assert.deepEqual(later.results.map(statusOf), ['fail', 'alone', 'alone'], 'the looping one, and the pass after it, left alone, on their own');
    assert.match(later.log.join('\n'), /#2's round ran past its limit \(5\.2 s of CPU time\)/);
  });

  it('runs the round a process died in on its own, and shares no more after two processes left no report', async () => {
    const crashed = await stageOne(['crash', 'fail', 'fail'], 1);
    assert.deepEqual(crashed.results.map(statusOf), ['alone', 'fail', 'fail after others']);
    const { results, log } = await stageOne(['silent', 'fail', 'silent', 'fail', 'fail'], 1);
    assert.deepEqual(results.map(statusOf), ['alone', 'alone', 'alone', 'alone', 'alone']);
    assert.match(log.join('\n'), /stage 1 runs one process per candidate from here on: two shared processes left no report/);
  });

  it('shares no more after two processes lost their second round, the first one loaded anew', async () => {
    const { results, log } = await stageOne(['fail', 'broken', 'fail', 'broken', 'fail'], 1);
    assert.deepEqual(results.map(statusOf), ['fail', 'alone', 'fail', 'alone', 'alone']);
    assert.match(log.join('\n'), /from here on: two shared processes lost their second round \(the last: a candidate could not be loaded \(Unexpected token\)\)/);
  });

  it('leaves a lone candidate to run on its own', async () => {
    const { results, processes } = await stageOne(['fail']);
    assert.deepEqual(results.map(statusOf), ['alone']);
    assert.equal(processes.length, 0);
  });
});

describe('reading the rounds back', () => {
  it("splits pytest's report lines at each round's mark; lines after the last mark are a round that did not finish", () => {
    const row = (id: string, outcome: string) => JSON.stringify({ id, when: 'call', outcome });
    const report = [row('t::a', 'failed'), JSON.stringify({ [ROUND_MARK]: 0, ms: 40 }), row('t::a', 'passed'), JSON.stringify({ [ROUND_MARK]: 1, ms: 30 }),
      row('t::a', 'passed'), '{"id": "t::b", "wh', JSON.stringify({ [STOPPED_MARK]: 'thread', detail: null })].join('\n');
    const parsed = PYTEST_ROUNDS.parse(report);
    assert.deepEqual(parsed?.rounds.map((r) => [r.failed, r.ms]), [[true, 40], [false, 30], [false, undefined]]);
    assert.equal(parsed?.rounds[0].report, row('t::a', 'failed'));
    assert.deepEqual(parsed?.stopped, { stop: 'thread' });
    assert.equal(PYTEST_ROUNDS.parse(row('t::a', 'failed')), undefined, 'a report without marks holds no rounds');
  });

  it("reads tape's rounds as the hook's lines, each round's lines as the tape adapter reads a run's", () => {
    const row = (names: string[], outcome: string) => JSON.stringify({ file: 'test/a.test.js', names, outcome });
    const report = [row(['x'], 'failed'), row(['y'], 'passed'), JSON.stringify({ [ROUND_MARK]: 0, ms: 25 }), row(['x'], 'passed'), row(['y'], 'passed'),
      JSON.stringify({ [ROUND_MARK]: 1, ms: 4 }), JSON.stringify({ [STOPPED_MARK]: 'global', detail: null })].join('\n');
    const parsed = TAPE_ROUNDS.parse(report);
    assert.deepEqual(parsed?.rounds.map((r) => [r.failed, r.ms]), [[true, 25], [false, 4]]);
    assert.deepEqual(tapeAdapter.parse(parsed?.rounds[0].report ?? '', '/w'), [{ id: 'test/a.test.js > x', outcome: 'failed' }, { id: 'test/a.test.js > y', outcome: 'passed' }]);
    assert.deepEqual(parsed?.stopped, { stop: 'global' });
    assert.equal(TAPE_ROUNDS.parse(row(['x'], 'failed')), undefined, 'a run without a plan holds no rounds');
    assert.equal(roundsDialectOf(tapeAdapter), TAPE_ROUNDS);
    assert.equal(roundsDialectOf(avaAdapter), undefined, 'ava runs its files in workers of its own: no rounds');
  });

  it("reads mocha's rounds as the json reporter's lists", () => {
    const parsed = MOCHA_ROUNDS.parse(JSON.stringify({ rounds: [{ passes: [], failures: [{ title: 'x' }], pending: [], ms: 12 }, { passes: [{ title: 'x' }] }], stopped: 'handle' }));
    assert.deepEqual(parsed?.rounds.map((r) => [r.failed, r.ms]), [[true, 12], [false, undefined]]);
    assert.deepEqual(JSON.parse(parsed?.rounds[1].report ?? ''), { passes: [{ title: 'x' }], failures: [], pending: [] });
    assert.deepEqual(parsed?.stopped, { stop: 'handle' });
    assert.equal(MOCHA_ROUNDS.parse(JSON.stringify({ rounds: [], stopped: 'a reason no hook gives' }))?.stopped, undefined, 'only the hooks\' own keys decide');
    assert.equal(MOCHA_ROUNDS.parse('{"passes": []}'), undefined);
  });

  it("reads jest's rounds as the results processor wrote each, failed where a file failed", () => {
    const file = (status: string) => JSON.stringify({ testResults: [{ name: '/w/test/a.test.js', status, assertionResults: [{ ancestorTitles: [], title: 'x', status }] }] });
    const parsed = JEST_ROUNDS.parse(JSON.stringify({ rounds: [{ report: file('failed'), ms: 30 }, { report: file('passed'), ms: 9 }, { report: file('passed') }], stopped: 'firstPass', detail: 'rounds left: 1' }));
    assert.deepEqual(parsed?.rounds.map((r) => [r.failed, r.ms]), [[true, 30], [false, 9], [false, undefined]]);
    assert.equal(parsed?.rounds[1].report, file('passed'));
    assert.deepEqual(parsed?.stopped, { stop: 'firstPass', detail: 'rounds left: 1' });
    assert.equal(JEST_ROUNDS.parse(file('passed')), undefined, 'a plain report holds no rounds');
  });

  it('shares jest runs only where its results processor writes the report (not --json)', () => {
    assert.equal(roundsDialectOf(jestAdapter), JEST_ROUNDS);
    assert.equal(roundsDialectOf(withJestGuard(jestAdapter, 'setupFilesAfterEnv')), JEST_ROUNDS);
    assert.equal(roundsDialectOf(jestJsonAdapter), undefined);
  });

  it('shares vitest runs through either adapter, and a run whose workers keep modules ends sharing for the request', () => {
    assert.equal(roundsDialectOf(vitestAdapter), VITEST_ROUNDS);
    assert.equal(roundsDialectOf(vitestConfigAdapter), VITEST_ROUNDS);
    const report = JSON.stringify({ testResults: [{ name: '/w/a.test.js', status: 'failed', assertionResults: [] }] });
    assert.deepEqual(VITEST_ROUNDS.parse(JSON.stringify({ rounds: [{ report, ms: 5 }], stopped: 'keptByWorkers', detail: 'isolate: false' }))?.stopped, { stop: 'keptByWorkers', detail: 'isolate: false' });
    assert.ok(STRUCTURAL_STOPS.includes('keptByWorkers'));
  });
});
