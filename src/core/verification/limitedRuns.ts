// A candidate's runs under the limit the baseline sets, and its full runs judged against what the baseline showed
// (the per-test plan, the census of the request's own runs, or the test summary).
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import type { ExecutedRun, RunOptions, TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import type { ReporterRun } from '../testResults/reporterCommand';
import type { WideRun } from '../testCommand/wideRuns';
import type { ReachScope } from './reachScope';
import { crossCheck, judgePass } from './reference';
import type { Reference } from './reference';
import { judgeRun } from './stagedVerification';
import type { SuiteCensus } from './suiteCensus';
import { runLimit, timeoutReason } from './timeLimits';
import type { BaselineLimit } from './timeLimits';

/** A full run's verdict and per-test evidence. */
export interface FullRun {
  readonly verdict: Verdict;
  readonly tests?: TestEvidence;
}

export interface LimitedRunsOptions {
  readonly executor: TestExecutor;
  /** Settles when the baseline has run (at once, empty, without a baseline). */
  readonly reference: Promise<Reference>;
  /** The full command with the runner's reporter, when the runner is one this tool reads. */
  readonly fullCommand: ReporterRun | undefined;
  readonly slot: Slot;
  /** The request's per-run limit: the upper bound of every limit (a baseline limit above it does not apply). */
  readonly testTimeoutMs?: number;
  /** Without a baseline, the per-test counts of the request's own runs (suiteCensus); full runs are judged by them. */
  readonly census?: SuiteCensus;
}

/** A run's limit and place: its own limit, its place in the queue, the slots it holds, whether it runs the whole suite. */
export interface LimitedHow {
  readonly ownMs?: number | undefined;
  readonly priority?: number;
  readonly width?: number | undefined;
  readonly full?: boolean;
  /** Settles when the run gives its slot back, if it runs on (Slot). */
  readonly heldUntil?: Promise<unknown>;
}

/** How a full run runs: alone, its own limit, its place in the queue, on the reaching tests or wide, or as a head start. */
export interface FullHow {
  readonly alone?: boolean;
  readonly timeoutMs?: number | undefined;
  readonly priority?: number;
  readonly scope?: ReachScope | undefined;
  readonly wide?: WideRun | undefined;
  /** A head start's: what drops it. It runs at the lowest CPU priority, on what the baseline leaves. */
  readonly headStart?: AbortSignal;
}

/** One request's candidate runs through one executor and slot; runs that start before the baseline is in get the test timeout. */
export class LimitedRuns {
  private settled?: Reference;

  constructor(private readonly options: LimitedRunsOptions) {
    void options.reference.then((reference) => (this.settled = reference));
  }

  /** The baseline's limit, once it is in. */
  get baselineLimit(): BaselineLimit | undefined {
    return this.settled?.limit;
  }

  /** Whether the baseline is in. */
  get baselineIn(): boolean {
    return this.settled !== undefined;
  }

  /**
   * Runs `label` under the limit the baseline sets (or `ownMs`, when shorter; `full`: a run of the whole suite, which a
   * limit of the failing tests' does not bound); a timeout's reason says which.
   */
  async limited(fileText: string, label: string, options: RunOptions, { ownMs, priority = RunPriority.first, width, full = false, heldUntil }: LimitedHow = {}): Promise<ExecutedRun> {
    const { ms, basis } = runLimit(this.settled?.limit, this.options.testTimeoutMs, ownMs, full);
    // A limit from idle runs (the baseline's, or a strength variant's from its fix's runs) counts only the time the
    // run could run: waiting for a CPU stretches its wall time up to the test timeout (or up to the caller's own
    // limit, where the baseline's is the shorter). The user's own limit stays wall time.
    const cap = basis !== undefined ? Math.min(this.options.testTimeoutMs ?? Infinity, ownMs ?? Infinity) : (this.options.testTimeoutMs ?? Infinity);
    const limits = ms === undefined ? {} : { timeoutMs: ms, ...(cap < Infinity && cap > ms ? { waitingExtendsUpToMs: cap } : {}) };
    const run = await this.options.slot(() => this.options.executor.run(fileText, label, { ...options, ...limits }), priority, width, heldUntil);
    if (run.verdict.status !== 'timeout' || basis === undefined || ms === undefined) return run;
    return { ...run, verdict: { ...run.verdict, reason: timeoutReason(ms, basis, run.verdict.durationMs) } };
  }

  /** One full run of the command (or of the reaching tests, with `scope`), judged by the per-test plan or, without one, by the test summary. */
  async full(fileText: string, label: string, { alone = false, timeoutMs, priority = RunPriority.first, scope, wide, headStart }: FullHow = {}): Promise<FullRun> {
    const command = scope?.command ?? wide?.command ?? this.options.fullCommand;
    // A head start takes a slot the baseline leaves idle, and gives it back once the baseline is in: stage 1 needs
    // every slot then, and at the lowest priority the head start takes only what stage 1 leaves.
    const how = { ownMs: timeoutMs || undefined, priority, width: wide?.width, full: true, ...(headStart ? { heldUntil: this.options.reference } : {}) };
    const run = await this.limited(fileText, label, { alone, ...command, ...(headStart ? { signal: headStart, lowPriority: true } : {}) }, how);
    if (run.verdict.cancelled) return run;
    const { plan: whole, summary } = await this.options.reference;
    const plan = scope?.plan ?? whole;
    const { census } = this.options;
    if (!plan && census) {
      const own = census.judge(run, label);
      return { verdict: own.verdict.status === 'pass' ? crossCheck(judgePass(own.verdict, summary), own.tests, summary) : own.verdict };
    }
    if (!plan) return { verdict: run.verdict.status === 'pass' ? judgePass(run.verdict, summary) : run.verdict };
    const judged = judgeRun(run, plan, 'full');
    return judged.verdict.status === 'pass' ? { ...judged, verdict: crossCheck(judged.verdict, judged.tests, summary) } : judged;
  }
}
