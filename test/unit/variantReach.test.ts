// The strength check on a fix verified on its reaching tests: past the failing tests, its variants (and its control run)
// run only those tests; with --full-suite, or for a variant whose own edit leaves the function's body, the whole command.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Verifier } from '../../src/core/verification/verifier';
import type { Reference } from '../../src/core/verification/reference';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import type { RunnerAdapter, TestResult } from '../../src/core/testResults/types';
import type { CandidateResult } from '../../src/core/contract/fixRequest';
import type { TestStrength } from '../../src/core/contract/strength';
import { checkStrength } from '../../src/core/verification/strengthRuns';
import { describeStrength } from '../../src/core/verification/strengthCheck';
import { applyReplacement } from '../../src/core/base/textRange';
import type { Logger } from '../../src/core/base/logger';

const lib = 'function clamp(x, lo, hi) {\n  if (x > hi) return lo;\n  return x;\n}\nfunction other() { return 1; }\nmodule.exports = { clamp, other };\n';
const start = lib.indexOf('  if');
const end = lib.indexOf('\n', start);
const fix = '  if (x > hi) return hi;';
const fixed = applyReplacement(lib, start, end, fix);

/** A runner whose "report" is the JSON of its results and whose selection is spelled in the command. */
const adapter: RunnerAdapter = {
  name: 'node',
  command: (_base, _report, only) => (only ? `only:${only.join(',')}` : 'all'),
  parse: (report) => (report ? (JSON.parse(report) as TestResult[]) : []),
};
// `a` and `b` ran clamp on the unmodified code; `c` and `d` did not.
const baseline: TestResult[] = [
  { id: 'a', outcome: 'failed' }, { id: 'b', outcome: 'passed' }, { id: 'c', outcome: 'passed' }, { id: 'd', outcome: 'passed' },
];
const reference: Promise<Reference> = Promise.resolve({
  plan: { adapter, base: 'node --test', baseline, failing: ['a'], baselineRan: 4 },
  reach: { ids: ['a', 'b'], total: 4, functionStart: 0, functionEnd: lib.indexOf('}\n') + 1 },
});

/** Every run passes what it selects, except `a` on the unmodified code; records each run's label and command. */
/** A run as the executor was asked for it. */
interface RecordedRun {
  readonly label: string;
  readonly command: string;
  readonly timeoutMs?: number;
  readonly waitingExtendsUpToMs?: number;
}

function recording(): { executor: TestExecutor; runs: RecordedRun[] } {
  const runs: RecordedRun[] = [];
  const executor: TestExecutor = {
    protections: {} as TestExecutor['protections'],
    runsCanInterfere: false,
    isolation: 'fake',
    dispose: async () => undefined,
    run: async (fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun> => {
      const command = options?.command?.('/report') ?? 'all';
      runs.push({ label, command, timeoutMs: options?.timeoutMs, waitingExtendsUpToMs: options?.waitingExtendsUpToMs });
      const ids = command.startsWith('only:') ? command.slice(5).split(',') : ['a', 'b', 'c', 'd'];
      const failing = fileText === lib ? ['a'] : [];
      const report = JSON.stringify(ids.map((id) => ({ id, outcome: failing.includes(id) ? 'failed' : 'passed' })));
      const status = ids.some((id) => failing.includes(id)) ? 'fail' : 'pass';
      return { verdict: { status, durationMs: 1, exitCode: status === 'pass' ? 0 : 1, output: '', stdout: '', stderr: '' }, report, cwd: '/' };
    },
  };
  return { executor, runs };
}

const into = (logged: string[]): Logger => ({ trace() {}, info: (m) => void logged.push(m), warn: (m) => void logged.push(m), error() {} });

function verifier(executor: TestExecutor, logged: string[], fullSuite = false, testTimeoutMs?: number): Verifier {
  return new Verifier({
    executor, reference, fullCommand: { command: () => 'all' }, staged: true, requiredRuns: 1, languageId: 'javascript', signal: new AbortController().signal,
    slot: (run) => run(), originalText: lib, selectionStart: start, fullSuite, logger: into(logged), ...(testTimeoutMs !== undefined ? { testTimeoutMs } : {}),
  });
}

/** Verifies the fix, then runs the strength check on it; returns every run and the strength. */
async function verifyAndCheck(fullSuite: boolean) {
  const { executor, runs } = recording();
  const logged: string[] = [];
  const v = verifier(executor, logged, fullSuite);
  const outcome = await v.verify(0, lib.slice(start, end), fix, fixed);
  assert.equal(outcome?.runs[0].status, 'pass');
  const verdict = outcome.runs[0];
  const candidate: CandidateResult = { index: 0, replacement: fix, verdict, duplicateOf: null, runs: outcome.runs, verified: true, flaky: false, diff: '', changeSize: 1, changedCharacters: 2 };
  let strength: TestStrength | undefined;
  await checkStrength({ level: 'quick', verifier: v, languageId: 'javascript', relativePath: 'src/lib.js', originalText: lib, start, end, candidates: [candidate], ranking: [0], logger: into(logged) }, (_, s) => (strength = s));
  assert.ok(strength, 'the check reported a strength');
  const full = runs.filter((r) => r.label.startsWith('s') && !r.label.endsWith('f'));
  return { strength, full, logged, reachingTests: outcome.evidence.reachingTests };
}

describe('the strength check\'s variant limits', () => {
  it('count only the time a run could run, up to the test timeout: a loaded machine does not time a variant out', async () => {
    const { executor, runs } = recording();
    const v = verifier(executor, [], false, 60_000);
    const outcome = await v.verify(0, lib.slice(start, end), fix, fixed);
    assert.equal(outcome?.runs[0].status, 'pass');
    const candidate: CandidateResult = { index: 0, replacement: fix, verdict: outcome.runs[0], duplicateOf: null, runs: outcome.runs, verified: true, flaky: false, diff: '', changeSize: 1, changedCharacters: 2 };
    await checkStrength({ level: 'quick', verifier: v, languageId: 'javascript', relativePath: 'src/lib.js', originalText: lib, start, end, candidates: [candidate], ranking: [0] }, () => undefined);
    const variants = runs.filter((r) => /^s0v\d+/.test(r.label));
    assert.ok(variants.length > 0);
    for (const run of variants) {
      // The fix's own runs took 1 ms: the floor.
      assert.equal(run.timeoutMs, 2000, run.label);
      assert.equal(run.waitingExtendsUpToMs, 60_000, run.label);
    }
  });
});

describe('the strength check of a fix verified on its reaching tests', () => {
  it('runs the control and every variant past the failing tests on those tests only, and says so', async () => {
    const { strength, full, logged, reachingTests } = await verifyAndCheck(false);
    assert.deepEqual(reachingTests, { ran: 2, cannotReach: 2 });
    assert.ok(strength.variants > 0, JSON.stringify(strength));
    assert.ok(full.some((r) => r.label === 's0c'), 'the control run reached its full stage');
    assert.ok(full.length > 1, 'variants reached their full stage');
    for (const run of full) assert.equal(run.command, 'only:a,b', `${run.label} ran only the reaching tests`);
    assert.deepEqual(strength.reachingTests, { ran: 2, cannotReach: 2 });
    assert.match(describeStrength(strength), /\(the variants ran on the 2 tests that reach this change; the other 2 cannot\)$/);
    assert.ok(logged.some((m) => /strength check of #1: past the failing tests, its variants run only the 2 tests that reach the change/.test(m)), logged.join('\n'));
  });

  it('runs them on the whole command when the fix ran the whole command (--full-suite)', async () => {
    const { strength, full } = await verifyAndCheck(true);
    assert.ok(full.length > 1);
    for (const run of full) assert.equal(run.command, 'all', `${run.label} ran the whole command`);
    assert.equal(strength.reachingTests, undefined);
    assert.doesNotMatch(describeStrength(strength), /reach/);
  });

  it('runs a variant whose own edit leaves the function\'s body on the whole command, and logs why', async () => {
    const { executor, runs } = recording();
    const logged: string[] = [];
    const v = verifier(executor, logged);
    await v.verify(0, lib.slice(start, end), fix, fixed);
    const escape = '  return hi;\n}\nfunction clamp2() {';
    const outcome = await v.tryVariant('s0v9', applyReplacement(lib, start, end, escape), 5000, { fix: 0, replacement: escape });
    assert.equal(outcome, 'survived');
    assert.equal(runs.find((r) => r.label === 's0v9')?.command, 'all');
    assert.ok(logged.some((m) => /strength check of #1: variant s0v9 runs the full command, not only the reaching tests: the candidate changes code outside/.test(m)), logged.join('\n'));
    const inside = await v.tryVariant('s0v8', applyReplacement(lib, start, end, '  if (x >= hi) return hi;'), 5000, { fix: 0, replacement: '  if (x >= hi) return hi;' });
    assert.equal(inside, 'survived');
    assert.equal(runs.find((r) => r.label === 's0v8')?.command, 'only:a,b');
  });
});
