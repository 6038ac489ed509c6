// The baseline's process starts before a local provider's parse holds the event loop: `Baseline.started` follows the
// executor's `onStarted`, and the mutation provider waits for it where its mutants wait for the baseline anyway.
// Orders of events only, never timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defer } from '../../src/core/base/defer';
import type { Logger } from '../../src/core/base/logger';
import { startBaseline } from '../../src/core/engine/baseline';
import type { ExecutedRun, RunOptions, TestExecutor } from '../../src/core/execution/executor';
import { RunQueue } from '../../src/core/execution/runQueue';
import type { ProviderRequest, ProviderSample } from '../../src/core/contract/provider';
import { createMutationProvider } from '../../src/core/providers/mutationProvider';
import type { PreparedRequest } from '../../src/core/request/checkRequest';
import type { TestPlan } from '../../src/core/testCommand/testPlan';

const quiet: Logger = { trace() {}, info() {}, warn() {}, error() {} };
const file = ['function lessThan(a, b) {', '  if (a === b) return true;', '  return a < b;', '}', 'module.exports = { lessThan };', ''].join('\n');
const prepared: PreparedRequest = { relativePath: 'lt.js', text: file, start: 0, end: file.indexOf('module.exports'), languageId: 'javascript', testCommand: 'npm test', warnings: [] };
const plan: TestPlan = { testCommand: 'npm test', runCommand: 'npm test', env: {}, staged: false, log: [] };
const failed: ExecutedRun = { verdict: { status: 'fail', exitCode: 1, durationMs: 5, output: '', stdout: '', stderr: '' } };

/** An executor whose one run starts its process (or fails before one, `starts: false`) when told, and ends when told. */
function manualExecutor(starts: boolean) {
  const spawn = defer<void>();
  const end = defer<void>();
  const executor: TestExecutor = {
    protections: {} as TestExecutor['protections'],
    runsCanInterfere: false,
    isolation: 'fake',
    run: async (_text: string, _label: string, options?: RunOptions) => {
      await spawn.promise;
      if (starts) options?.onStarted?.();
      await end.promise;
      return failed;
    },
    dispose: async () => undefined,
  };
  return { executor, spawn: () => spawn.resolve(), end: () => end.resolve() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

function baselineWith(executor: TestExecutor, run = true) {
  return startBaseline({ run, executor, plan, prepared, slot: new RunQueue(2).slot, logger: quiet, onEvent: () => undefined });
}

describe('the baseline starts first', () => {
  it("settles `started` once the baseline's process has started, before its verdict", async () => {
    const fake = manualExecutor(true);
    const baseline = baselineWith(fake.executor);
    const events: string[] = [];
    void baseline.started.then(() => events.push('started'));
    void baseline.verdict.then(() => events.push('verdict'));
    await turn();
    assert.deepEqual(events, [], 'not before the process starts');
    fake.spawn();
    await turn();
    assert.deepEqual(events, ['started'], 'while the run goes on');
    fake.end();
    await baseline.verdict;
    assert.deepEqual(events, ['started', 'verdict']);
  });

  it('settles `started` with the verdict where no process started, and at once without a baseline', async () => {
    const fake = manualExecutor(false);
    const baseline = baselineWith(fake.executor);
    let started = false;
    void baseline.started.then(() => (started = true));
    fake.spawn();
    await turn();
    assert.equal(started, false);
    fake.end();
    await baseline.verdict;
    await turn();
    assert.equal(started, true, 'a provider waiting for it goes on');
    await baselineWith(manualExecutor(true).executor, false).started;
  });
});

function request(start: number, end: number, testsStarted: Promise<void>): ProviderRequest {
  return { languageId: 'javascript', relativePath: 'lt.js', fileText: file, start, end, samples: 3, baseline: Promise.resolve(undefined), testsStarted, signal: new AbortController().signal, logger: quiet };
}

async function firstSample(samples: AsyncIterable<ProviderSample>, events: string[], name: string): Promise<void> {
  for await (const sample of samples) {
    events.push(`${name}: ${sample.kind}`);
    return;
  }
}

describe('the mutation provider beside a starting baseline', () => {
  it("parses a selection of several lines only once the baseline's process has started", async () => {
    const testsStarted = defer<void>();
    const events: string[] = [];
    const waiting = firstSample(createMutationProvider().generate(request(prepared.start, prepared.end, testsStarted.promise)), events, 'lines');
    // A provider that does not wait (one line, below) parses and yields meanwhile: by then, the other would have too.
    const line = file.indexOf('  return a < b;');
    await firstSample(createMutationProvider().generate(request(line, line + '  return a < b;'.length, testsStarted.promise)), events, 'one line');
    assert.deepEqual(events, ['one line: candidate'], 'one line goes first: its first mutant starts beside the baseline');
    testsStarted.resolve();
    await waiting;
    assert.deepEqual(events, ['one line: candidate', 'lines: candidate']);
  });
});
