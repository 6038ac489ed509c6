// Shared stage-1 processes as the verifier uses them. A candidate that passed its failing tests in a round after other
// candidates' counts that round as its cheap confirmation, so its own full run is the only run it still needs; those
// that passed one file's failing tests (the sample) in one process share the run of all of them too, where the run
// cannot stop at the first failure (mocha --no-bail); else each runs all of them in its one round. The process is a
// fake executor that answers as mocha's hook does (one report per round); orders of runs only, never timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunQueue } from '../../src/core/execution/runQueue';
import { Verifier } from '../../src/core/verification/verifier';
import { describeRuns } from '../../src/core/verification/evidence';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { ROUNDS_PLAN_FILE } from '../../src/core/testResults/sharedRounds';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import type { Reference } from '../../src/core/verification/reference';

/** Test titles and the files that hold them; `fixed*` fail on the unmodified code. */
const ONE_FILE = { fixed: 'a.test.js', other: 'a.test.js' };
const TWO_FILES = { fixed: 'a.test.js', fixed2: 'b.test.js', other: 'a.test.js' };
type Suite = Readonly<Record<string, string>>;

/** 'good' passes every test; 'half' fails `fixed2` only; any other text fails every `fixed*`. */
const passes = (text: string, test: string) => text === 'good' || !test.startsWith('fixed') || (text === 'half' && test === 'fixed');
const entry = (title: string, suite: Suite) => ({ title, fullTitle: title, file: `/w/${suite[title]}` });
function mochaReport(text: string, tests: readonly string[], suite: Suite) {
  return {
    passes: tests.filter((t) => passes(text, t)).map((t) => entry(t, suite)),
    failures: tests.filter((t) => !passes(text, t)).map((t) => ({ ...entry(t, suite), err: { message: 'expected 10' } })),
    pending: [],
  };
}

/** The tests a command runs: those its --grep names, in the files it names; every test without one. */
function selected(command: string, suite: Suite): string[] {
  const grep = /--grep '\^\(\?:(.*)\)'/.exec(command);
  if (!grep) return Object.keys(suite);
  const titles = grep[1].split('|').map((t) => t.replace(/\$$/, ''));
  return titles.filter((t) => command.includes(` ${suite[t]}`));
}

/** Records each run's label; a run whose files hold a rounds plan answers with one round per candidate text. */
function executor(started: string[], suite: Suite): TestExecutor {
  return {
    protections: {} as TestExecutor['protections'], runsCanInterfere: false, isolation: 'fake', dispose: async () => undefined,
    run: async (fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun> => {
      started.push(label);
      await new Promise((resolve) => setImmediate(resolve));
      const tests = selected(options?.command?.('/report', '/out') ?? '', suite);
      const planText = options?.outputFiles?.[ROUNDS_PLAN_FILE];
      const texts = planText ? [fileText, ...(JSON.parse(planText) as { texts: string[] }).texts.map((name) => options?.outputFiles?.[name] ?? '')] : [fileText];
      const rounds = texts.map((text) => ({ ...mochaReport(text, tests, suite), ms: 1 }));
      const failed = rounds.some((r) => r.failures.length > 0);
      const report = planText ? { rounds } : mochaReport(fileText, tests, suite);
      return { verdict: { status: failed ? 'fail' : 'pass', durationMs: 2, exitCode: failed ? 1 : 0, output: '', stdout: '', stderr: '' }, report: JSON.stringify(report), cwd: '/w' };
    },
  };
}

function verifier(started: string[], suite: Suite = ONE_FILE, base = 'mocha'): Verifier {
  const tests = Object.keys(suite);
  const baseline = mochaAdapter.parse(JSON.stringify(mochaReport('bad', tests, suite)), '/w');
  const fixed = baseline.filter((t) => t.outcome === 'failed').map((t) => t.id);
  const reference: Reference = { plan: { adapter: mochaAdapter, base, baseline, failing: fixed, baselineRan: tests.length } };
  return new Verifier({
    executor: executor(started, suite), reference: Promise.resolve(reference), fullCommand: { command: (report, out) => mochaAdapter.command('mocha', report, undefined, out) ?? 'mocha' },
    staged: true, requiredRuns: 2, languageId: 'javascript', signal: new AbortController().signal, slot: new RunQueue(1).slot, testTimeoutMs: 60_000,
    sharing: { relativePath: 'src/calc.js', parallel: 1 },
  });
}

describe('a pass in a shared stage-1 round after other candidates', () => {
  it("counts as the cheap confirmation: the candidate's own full run is the one run it still needs", async () => {
    const started: string[] = [];
    const v = verifier(started);
    const [wrong, right] = await Promise.all([v.verify(0, 'x', 'bad', 'bad'), v.verify(1, 'x', 'good', 'good')]);
    assert.deepEqual(started, ['c0fs2', 'c1'], 'one shared process (#1 then #2), then #2\'s full run; no run of its fixed tests alone');
    assert.deepEqual(wrong?.runs.map((r) => r.status), ['fail']);
    assert.deepEqual(right?.runs.map((r) => r.status), ['pass', 'pass']);
    assert.equal(right?.evidence.tests?.passed, 2, "the evidence is the full run's");
    assert.equal(describeRuns({ runs: right?.runs ?? [], flaky: false, confirmedOn: right?.evidence.confirmedOn }), 'full suite passed; fixed tests passed 2/2 runs');
  });
});

describe('failing tests in two files', () => {
  it('run in one round per candidate where the run stops at the first failure, the file with the most first', async () => {
    const started: string[] = [];
    const v = verifier(started, TWO_FILES);
    const [wrong, right, half] = await Promise.all([v.verify(0, 'x', 'bad', 'bad'), v.verify(1, 'x', 'good', 'good'), v.verify(2, 'x', 'half', 'half')]);
    assert.deepEqual(started, ['c0fs3', 'c1'], "one process of all the failing tests for #1 to #3, then #2's full run");
    assert.deepEqual([wrong, right, half].map((o) => o?.runs.map((r) => r.status)), [['fail'], ['pass', 'pass'], ['fail']]);
    assert.deepEqual(half?.evidence.tests?.stillFailing, ['b.test.js > fixed2']);
    assert.equal(describeRuns({ runs: right?.runs ?? [], flaky: false, confirmedOn: right?.evidence.confirmedOn }), 'full suite passed; fixed tests passed 2/2 runs');
  });

  it('that passed one file\'s failing tests in one process share the run of all of them as well, where the run goes on past a failure', async () => {
    const started: string[] = [];
    const v = verifier(started, TWO_FILES, 'mocha --no-bail');
    const [wrong, right, half] = await Promise.all([v.verify(0, 'x', 'bad', 'bad'), v.verify(1, 'x', 'good', 'good'), v.verify(2, 'x', 'half', 'half')]);
    assert.deepEqual(started, ['c0f0s3', 'c1fs2', 'c1'], "the sample's process (#1 to #3), one process of all the failing tests for #2 and #3, then #2's full run");
    assert.deepEqual([wrong, right, half].map((o) => o?.runs.map((r) => r.status)), [['fail'], ['pass', 'pass'], ['fail']]);
    assert.deepEqual(half?.evidence.tests?.stillFailing, ['b.test.js > fixed2'], 'its round of all the failing tests is its verdict');
    assert.equal(describeRuns({ runs: right?.runs ?? [], flaky: false, confirmedOn: right?.evidence.confirmedOn }), 'full suite passed; fixed tests passed 2/2 runs');
  });
});
