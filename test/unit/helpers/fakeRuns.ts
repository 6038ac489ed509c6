// Runs without processes, for the order and verdict logic of the Verifier and its queue: a runner whose command
// names the ids it selects, and an executor whose test outcomes a test decides per candidate text and test id.
import type { ExecutedRun, RunOptions, TestExecutor } from '../../../src/core/execution/executor';
import type { RunnerAdapter, TestResult } from '../../../src/core/testResults/types';

/** `only:a,b` for a selection, `all` for the whole suite; the report is the JSON list of results. */
export const selectingAdapter: RunnerAdapter = {
  name: 'node',
  command: (_base, _report, only) => (only ? `only:${only.join(',')}` : 'all'),
  parse: (report) => (report ? (JSON.parse(report) as TestResult[]) : []),
};

/**
 * Records each run's label in `started`; a run reports the ids its command selects (every id in `all` for the
 * whole suite), each passing or failing as `passes` says, and passes when they all do. Runs end in the order they
 * start. With `abort`, the run labelled `after` aborts its controller, and runs from then on are cancelled.
 */
export function scriptedExecutor(started: string[], all: readonly string[], passes: (fileText: string, id: string) => boolean, abort?: { after: string; controller: AbortController }): TestExecutor {
  return {
    protections: {} as TestExecutor['protections'],
    runsCanInterfere: false,
    isolation: 'fake',
    dispose: async () => undefined,
    run: async (fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun> => {
      started.push(label);
      await new Promise((resolve) => setImmediate(resolve));
      if (abort?.controller.signal.aborted) {
        return { verdict: { status: 'error', durationMs: 0, exitCode: null, output: '', stdout: '', stderr: '', cancelled: true } };
      }
      if (label === abort?.after) abort.controller.abort();
      const command = options?.command?.('/report') ?? 'all';
      const ids = command.startsWith('only:') ? command.slice(5).split(',') : all;
      const results = ids.map((id) => ({ id, outcome: passes(fileText, id) ? 'passed' : 'failed' }));
      const ok = results.every((r) => r.outcome === 'passed');
      return { verdict: { status: ok ? 'pass' : 'fail', durationMs: 1, exitCode: ok ? 0 : 1, output: '', stdout: '', stderr: '' }, report: JSON.stringify(results), cwd: '/' };
    },
  };
}
