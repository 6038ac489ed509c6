// Tests that fail on the unmodified code too, found by re-running a candidate's broken tests there: flaky, not its fault.
import type { ExecutedRun, TestExecutor } from '../execution/executor';
import type { PerTestPlan } from './stagedVerification';
import { selectionCommand } from '../testResults/selection';

/**
 * Runs of the suspects on the unmodified code; one failure there is enough to name a test flaky. A failure right after
 * a pass of the same candidate is likelier flakiness than a first run's failure (most of those are the candidate's),
 * so it earns the second try.
 */
const BASELINE_TRIES = { firstRun: 1, afterPass: 2 };
/** A candidate that breaks more tests than this broke them: one flaky test explains one failure, not a dozen. */
const MAX_SUSPECTS = 3;

export interface FlakyTestsOptions {
  readonly executor: TestExecutor;
  readonly plan: PerTestPlan;
  /** The file text the candidates replace: the suspects run on it. */
  readonly originalText: string;
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
}

/** What the request learns about tests on the unmodified code, shared by every candidate. */
export class FlakyTests {
  /** Failed at least once on the unmodified code, after passing on the baseline. */
  private readonly flaky = new Set<string>();
  /** Passed every re-run on the unmodified code: a candidate that breaks them is not re-checked each time. */
  private readonly stable = new Set<string>();
  private runs = 0;
  /** The tests that passed on the baseline: only those can be flaky (pass once, fail once). */
  private readonly passedOnBaseline: ReadonlySet<string>;

  constructor(private readonly options: FlakyTestsOptions) {
    this.passedOnBaseline = new Set(options.plan.baseline.filter((test) => test.outcome === 'passed').map((test) => test.id));
  }

  /** Every test found flaky so far, in the order found. */
  get found(): readonly string[] {
    return [...this.flaky];
  }

  /**
   * The tests among `broke` (a failed run's only failures) that also fail on the unmodified code; empty when any of
   * them is the candidate's doing, never passed on the baseline, or when there are too many to be flakiness.
   */
  async explain(broke: readonly string[], afterPass: boolean): Promise<readonly string[]> {
    if (broke.length === 0 || broke.length > MAX_SUSPECTS || broke.some((id) => this.stable.has(id))) return [];
    // A test the baseline never saw pass (the user's --bail stopped it first) may fail on the unmodified code every
    // time: a failure there would not make it flaky, and the candidate's run stands as it is.
    if (broke.some((id) => !this.passedOnBaseline.has(id))) return [];
    const unknown = broke.filter((id) => !this.flaky.has(id));
    if (unknown.length > 0) {
      const failed = await this.failOnBaseline(unknown, afterPass ? BASELINE_TRIES.afterPass : BASELINE_TRIES.firstRun);
      for (const id of unknown) (failed.has(id) ? this.flaky : this.stable).add(id);
    }
    return broke.every((id) => this.flaky.has(id)) ? broke : [];
  }

  /** The ids that failed in any of up to `tries` runs of them alone on the unmodified code. */
  private async failOnBaseline(ids: readonly string[], tries: number): Promise<Set<string>> {
    const { executor, plan, originalText, slot } = this.options;
    const command = selectionCommand(plan.adapter, plan.base, ids);
    const failed = new Set<string>();
    if (!command) return failed;
    for (let i = 0; i < tries && failed.size < ids.length; i++) {
      const run: ExecutedRun = await slot(() => executor.run(originalText, `flaky${++this.runs}`, { ...command }));
      if (run.verdict.cancelled) break;
      for (const result of plan.adapter.parse(run.report ?? '', run.cwd ?? '')) {
        if (result.outcome === 'failed' && ids.includes(result.id)) failed.add(result.id);
      }
    }
    return failed;
  }
}

/** The words a set-aside run carries: which tests, and where they failed. */
export function flakyNote(ids: readonly string[]): string {
  const names = ids.map((id) => `"${id}"`).join(', ');
  return `${ids.length === 1 ? 'test' : 'tests'} ${names} also failed once on the unmodified code (flaky)`;
}
