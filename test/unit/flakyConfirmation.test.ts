// Confirmation runs under load: a timeout is re-run longer, a failure of a test that is flaky on the unmodified code is
// set aside and named, and every run keeps its evidence in --json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { Verifier } from '../../src/core/verification/verifier';
import type { Reference } from '../../src/core/verification/reference';
import { CandidatePool } from '../../src/core/engine/candidatePool';
import { describeRuns } from '../../src/core/verification/evidence';
import { fixJson } from '../../src/cli/fixReport';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import type { FixResult, RunStatus } from '../../src/core/contract/fixRequest';
import type { RunnerAdapter, TestResult } from '../../src/core/testResults/types';
import { repoRoot } from './helpers/paths';

const ORIGINAL = 'original';
const CANDIDATE = 'candidate';
const TEST_TIMEOUT_MS = 1000;

/** A runner whose "report" is the JSON of its results and whose selection is spelled in the command. */
const adapter: RunnerAdapter = {
  name: 'node',
  command: (_base, _report, only) => (only ? `only:${only.join(',')}` : 'all'),
  parse: (report) => (report ? (JSON.parse(report) as TestResult[]) : []),
};
const results = (outcomes: Record<string, 'passed' | 'failed'>): TestResult[] => Object.entries(outcomes).map(([id, outcome]) => ({ id, outcome }));
// `a` is the bug's test; `b` and `c` passed on the baseline.
const baseline = results({ a: 'failed', b: 'passed', c: 'passed' });
const reference: Promise<Reference> = Promise.resolve({ plan: { adapter, base: 'node --test', baseline, failing: ['a'], baselineRan: 3 } });

interface Call { readonly fileText: string; readonly command: string; readonly timeoutMs?: number }
/** Answers each run from `script`: which tests fail (and whether it times out) for the nth full run of the candidate or the nth baseline re-run. */
function fakeExecutor(script: { candidate: (n: number) => string[] | 'timeout'; original?: (n: number) => string[]; tests?: string[] }): { executor: TestExecutor; calls: Call[] } {
  const calls: Call[] = [];
  let fullRuns = 0;
  let baselineRuns = 0;
  const executor: TestExecutor = {
    protections: {} as TestExecutor['protections'],
    runsCanInterfere: true,
    isolation: 'fake',
    dispose: async () => undefined,
    run: async (fileText: string, _label: string, options?: RunOptions): Promise<ExecutedRun> => {
      const command = options?.command?.('/report') ?? 'plain';
      calls.push({ fileText, command, ...(options?.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
      const selected = command.startsWith('only:') ? command.slice(5).split(',') : (script.tests ?? ['a', 'b', 'c']);
      let failing: string[] | 'timeout';
      if (fileText === ORIGINAL) failing = script.original?.(++baselineRuns) ?? [];
      else if (command === 'all') failing = script.candidate(++fullRuns);
      else failing = [];
      const status: RunStatus = failing === 'timeout' ? 'timeout' : failing.length ? 'fail' : 'pass';
      const report = failing === 'timeout' ? '' : JSON.stringify(selected.map((id) => ({ id, outcome: failing.includes(id) ? 'failed' : 'passed' })));
      const output = failing === 'timeout' ? '' : `not ok: ${failing.join(', ')}`;
      return { verdict: { status, durationMs: 10, exitCode: status === 'pass' ? 0 : 1, output, stdout: output, stderr: '', ...(status === 'timeout' ? { reason: 'timed out after 1.0 s' } : {}) }, report, cwd: '/' };
    },
  };
  return { executor, calls };
}

async function verify(script: Parameters<typeof fakeExecutor>[0], requiredRuns = 2) {
  const { executor, calls } = fakeExecutor(script);
  const verifier = new Verifier({
    executor, reference, fullCommand: { command: () => 'all' }, staged: true, requiredRuns, languageId: 'javascript', signal: new AbortController().signal,
    // Full-run confirmations: what a runner that cannot select gets (survivorsFirst.test.ts covers the cheap ones).
    slot: (run) => run(), testTimeoutMs: TEST_TIMEOUT_MS, originalText: ORIGINAL, cheapConfirmation: false,
  });
  const outcome = await verifier.verify(0, 'x', 'y', CANDIDATE);
  assert.ok(outcome);
  const pool = new CandidatePool({ relativePath: 'f.js', originalText: ORIGINAL, start: 0, end: 1, requiredRuns });
  pool.add({ index: 0, replacement: 'y' });
  const [result] = pool.complete({ index: 0, replacement: 'y' }, outcome.runs, outcome.evidence);
  return { result, calls, flakyTests: verifier.flakyTestsFound() };
}

describe('a candidate failing only on a test that is flaky on the unmodified code', () => {
  it('re-runs that test on the unmodified code, names it flaky, re-runs the candidate and verifies it on the whole suite', async () => {
    const { result, calls, flakyTests } = await verify({ candidate: (n) => (n === 1 ? ['b'] : []), original: () => ['b'] });
    assert.deepEqual(flakyTests, ['b']);
    const onOriginal = calls.filter((c) => c.fileText === ORIGINAL);
    assert.deepEqual(onOriginal.map((c) => c.command), ['only:b'], 'only the suspect ran on the unmodified code, once: it failed there');
    assert.deepEqual(result.runs.map((r) => r.status), ['fail', 'pass', 'pass']);
    assert.match(result.runs[0].reason ?? '', /test "b" also failed once on the unmodified code \(flaky\)/);
    assert.deepEqual(result.setAside?.map((s) => s.run), [0]);
    assert.equal(result.verified, true);
    assert.equal(result.flaky, false);
    assert.equal(result.verdict.status, 'pass', 'the sample is the re-run, not the run the flaky test failed');
    assert.ok(calls.filter((c) => c.fileText === CANDIDATE && c.command === 'all').length === 3, 'every verifying run was the whole suite');
  });

  it('blames the candidate when the test passes on the unmodified code every time', async () => {
    const { result, calls, flakyTests } = await verify({ candidate: () => ['b'] });
    assert.deepEqual(flakyTests, []);
    assert.equal(calls.filter((c) => c.fileText === ORIGINAL).length, 1, 'a first run\'s failure: tried once on the unmodified code');
    assert.deepEqual(result.runs.map((r) => r.status), ['fail']);
    assert.equal(result.setAside, undefined);
    assert.equal(result.verified, false);
    assert.match(result.verdict.reason ?? '', /^broke: b$/);
  });
});

describe('a candidate failing only on a test the baseline never reached (the user\'s --bail stopped it before)', () => {
  it('fails it as it stands: a failure of that test on the unmodified code says nothing of flakiness', async () => {
    // Express 4's `--bail` suite: the xhr bug fails "should return true …", and the baseline stops there; candidates
    // that fix it but break "should return false otherwise" (which fails on the unmodified code too) were called
    // flaky ("also failed once on the unmodified code") and ran the whole suite again, to fail it again.
    const { result, calls, flakyTests } = await verify({ candidate: () => ['d'], original: () => ['d'], tests: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(flakyTests, []);
    assert.equal(calls.filter((c) => c.fileText === ORIGINAL).length, 0, 'nothing ran on the unmodified code');
    assert.deepEqual(result.runs.map((r) => r.status), ['fail']);
    assert.equal(result.setAside, undefined);
    assert.match(result.verdict.reason ?? '', /^fails: d \(the unmodified code's run stopped before reaching it\)$/);
  });
});

describe('confirmation runs', () => {
  it('reports a pass followed by timeouts as such, not as flaky, after a re-run with a longer limit', async () => {
    const { result, calls } = await verify({ candidate: (n) => (n === 1 ? [] : 'timeout') });
    assert.deepEqual(result.runs.map((r) => r.status), ['pass', 'timeout', 'timeout']);
    assert.ok((calls.at(-1)?.timeoutMs ?? 0) > TEST_TIMEOUT_MS, 'the re-run had a longer limit than the request\'s');
    assert.equal(result.flaky, false);
    assert.equal(result.verified, false);
    assert.match(describeRuns(result), /^passed 1 of 3 runs; the 2nd set aside \(timed out after 1\.0 s: re-run with 2× the limit\); the 3rd timed out$/);
  });

  it('verifies a candidate whose timed-out confirmation passes with the longer limit', async () => {
    const { result } = await verify({ candidate: (n) => (n === 2 ? 'timeout' : []) });
    assert.deepEqual(result.runs.map((r) => r.status), ['pass', 'timeout', 'pass']);
    assert.equal(result.verified, true);
  });

  it('re-runs a pass-then-fail before calling it flaky (its test tried twice on the unmodified code)', async () => {
    const { result, calls } = await verify({ candidate: (n) => (n === 2 ? ['c'] : []) });
    assert.equal(calls.filter((c) => c.fileText === ORIGINAL).length, 2);
    assert.deepEqual(result.runs.map((r) => r.status), ['pass', 'fail', 'pass']);
    assert.equal(result.flaky, true);
    assert.equal(result.verified, false);
    assert.match(describeRuns(result), /^passed 2 of 3 runs, flaky; the 2nd failed$/);
  });

  it('keeps every run\'s status, reason, duration and failure in --json, as the schema documents', async () => {
    const { result, flakyTests } = await verify({ candidate: (n) => (n === 1 ? ['b'] : []), original: () => ['b'] });
    const fix: FixResult = {
      relativePath: 'f.js', testCommand: 'node --test', baseline: { status: 'fail', durationMs: 1, exitCode: 1, output: '', stdout: '', stderr: '' }, baselinePassed: false,
      perTest: true, failingTests: ['a'], flakyTests, candidates: [result], verified: [0], samples: 1, passed: 1, lost: [],
      durationMs: 1, originalText: ORIGINAL, start: 0, end: 1,
    };
    const json = JSON.parse(JSON.stringify(fixJson(fix, [1, 1], 1)));
    assert.deepEqual(json.baseline.flakyTests, ['b']);
    const [first] = json.candidates[0].runDetails;
    assert.equal(first.status, 'fail');
    assert.match(first.reason, /also failed once on the unmodified code/);
    assert.match(first.failure, /not ok: b/);
    assert.match(first.setAside, /flaky/);
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(join(repoRoot, 'docs', 'schemas', 'fix.schema.json'), 'utf8')));
    assert.ok(validate(json), JSON.stringify(validate.errors));
  });
});
