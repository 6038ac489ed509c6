// A candidate that passed its failing tests in a round after other candidates' in a shared stage-1 process: that
// round counts as its cheap confirmation, so its own full run is the only run it still needs. The process is a fake
// executor that answers as mocha's hook does (one report per round); orders of runs only, never timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunQueue } from '../../src/core/execution/runQueue';
import { Verifier } from '../../src/core/verification/verifier';
import { describeRuns } from '../../src/core/verification/evidence';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { ROUNDS_PLAN_FILE } from '../../src/core/testResults/sharedRounds';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import type { Reference } from '../../src/core/verification/reference';

const TESTS = ['fixed', 'other'];
const entry = (title: string) => ({ title, fullTitle: title, file: '/w/t.test.js' });
/** 'good' passes every test; any other text fails `fixed`. */
const passes = (text: string, test: string) => text === 'good' || test !== 'fixed';
function mochaReport(text: string, tests: readonly string[]) {
  return {
    passes: tests.filter((t) => passes(text, t)).map(entry),
    failures: tests.filter((t) => !passes(text, t)).map((t) => ({ ...entry(t), err: { message: 'expected 10' } })),
    pending: [],
  };
}

/** Records each run's label; a run whose files hold a rounds plan answers with one round per candidate text. */
function executor(started: string[]): TestExecutor {
  return {
    protections: {} as TestExecutor['protections'], runsCanInterfere: false, isolation: 'fake', dispose: async () => undefined,
    run: async (fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun> => {
      started.push(label);
      await new Promise((resolve) => setImmediate(resolve));
      const command = options?.command?.('/report', '/out') ?? '';
      const tests = command.includes('--grep') ? ['fixed'] : TESTS;
      const planText = options?.outputFiles?.[ROUNDS_PLAN_FILE];
      const texts = planText ? [fileText, ...(JSON.parse(planText) as { texts: string[] }).texts.map((name) => options?.outputFiles?.[name] ?? '')] : [fileText];
      const rounds = texts.map((text) => ({ ...mochaReport(text, tests), ms: 1 }));
      const failed = rounds.some((r) => r.failures.length > 0);
      const report = planText ? { rounds } : mochaReport(fileText, tests);
      return { verdict: { status: failed ? 'fail' : 'pass', durationMs: 2, exitCode: failed ? 1 : 0, output: '', stdout: '', stderr: '' }, report: JSON.stringify(report), cwd: '/w' };
    },
  };
}

function verifier(started: string[]): Verifier {
  const baseline = mochaAdapter.parse(JSON.stringify(mochaReport('bad', TESTS)), '/w');
  const fixed = baseline.filter((t) => t.outcome === 'failed').map((t) => t.id);
  const reference: Reference = { plan: { adapter: mochaAdapter, base: 'mocha', baseline, failing: fixed, baselineRan: TESTS.length } };
  return new Verifier({
    executor: executor(started), reference: Promise.resolve(reference), fullCommand: { command: (report, out) => mochaAdapter.command('mocha', report, undefined, out) ?? 'mocha' },
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
