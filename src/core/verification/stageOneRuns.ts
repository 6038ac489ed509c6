// Stage 1 of a candidate or variant: the baseline's failing tests alone (one file's first, where they span several),
// each run in a process of its own or as a round of one shared with other candidates (stageOneBatch.ts).
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { ExecutedRun, RunOptions, TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import { selectionCommand } from '../testResults/selection';
import type { ReporterRun } from '../testResults/reporterCommand';
import { failingSample, fileOf, judgeRun } from './stagedVerification';
import type { PerTestPlan } from './stagedVerification';
import { runLimit } from './timeLimits';
import type { BaselineLimit } from './timeLimits';
import type { Reference } from './reference';
import { StageOneBatch } from './stageOneBatch';
import type { SharedStart } from './stageOneBatch';
import { roundsDialectOf } from './roundDialects';

const emptyEvidence: TestEvidence = { fixed: [], broke: [], stillFailing: [], passed: 0, failed: 0 };

/** What stage 1 takes from its verifier. */
export interface StageOneOptions {
  readonly reference: Promise<Reference>;
  readonly staged: boolean;
  readonly executor: TestExecutor;
  readonly slot: Slot;
  readonly testTimeoutMs?: number;
  /** The file under repair and the request's parallel slots: with both, runs may be rounds of shared processes. */
  readonly sharing?: { readonly relativePath: string; readonly parallel: number };
  readonly logger?: Logger;
  /** One run under the limit the baseline sets, or `ownMs` where shorter (the verifier's, which says which in a timeout). */
  readonly limitedRun: (fileText: string, label: string, options: RunOptions, ownMs?: number, priority?: number) => Promise<ExecutedRun>;
  /** The baseline's limit, once the baseline is in: a shared process's rounds get it in CPU time. */
  readonly baselineLimit: () => BaselineLimit | undefined;
}

/** How a selected run runs: alone or beside others, its place in the queue, and whether it may share a process (as whom). */
export interface SelectedHow {
  readonly alone: boolean;
  readonly priority: number;
  readonly share?: Sharing;
}

/** A candidate's stage-1 run that may be a round of a shared process: its name in the log, and whether its full run is underway. */
export interface Sharing {
  readonly name: string;
  readonly fullRunUnderway: boolean;
}

/** A stage-1 run's verdict and evidence. */
export interface StageOneRun {
  readonly verdict: Verdict;
  readonly tests: TestEvidence;
}

/** The stage-1 runs of one verifier: the sample file it starts with and the shared processes, each worked out once. */
export class StageOneRuns {
  /** The failing tests of one file run before the rest (null: none, one file holds them all); see sampleOf. */
  private sample?: PerTestPlan | null;
  /** Per selection, the runs shared among candidates (null: the runner or the request cannot share them). */
  private readonly batches = new Map<PerTestPlan, StageOneBatch | null>();

  constructor(private readonly options: StageOneOptions) {}

  /**
   * Stage 1 of a candidate or variant: where the failing tests span several files, first those of one (a run that
   * did not pass ends the stage there), then all of them, ahead of other candidates' first runs. With `share` (the
   * candidate's name for the log), each of its runs may be a round of a process shared with others; never a
   * variant's: there a failure is what counts, and an earlier round could cause one.
   */
  async run(fileText: string, label: string, timeoutMs?: number, share?: Sharing): Promise<StageOneRun | undefined> {
    const { plan } = await this.options.reference;
    const sample = plan && this.options.staged ? this.sampleOf(plan) : undefined;
    const first = sample ? await this.runSelected(sample, fileText, `${label}0`, timeoutMs, { alone: false, priority: RunPriority.first, share }) : undefined;
    if (first && (first.verdict.cancelled || first.verdict.status !== 'pass')) return first;
    // Those that passed the sample's tests in one process come back together: they share the next one as well.
    return this.failingTests(fileText, label, timeoutMs, { alone: false, priority: first ? RunPriority.failingTests : RunPriority.first, share });
  }

  /** Only the tests that failed on the baseline; undefined when there is nothing to select. */
  async failingTests(fileText: string, label: string, timeoutMs?: number, how?: SelectedHow): Promise<StageOneRun | undefined> {
    const { plan } = await this.options.reference;
    return plan && this.options.staged && plan.failing.length > 0 ? this.runSelected(plan, fileText, label, timeoutMs, how) : undefined;
  }

  /** The failing tests of one file (failingSample), worked out once and said once in the log. */
  private sampleOf(plan: PerTestPlan): PerTestPlan | undefined {
    if (this.sample === undefined) {
      const sample = failingSample(plan);
      this.sample = sample ?? null;
      if (sample) {
        const file = fileOf(sample.failing[0]);
        this.options.logger?.info(`stage 1 starts with the failing tests of ${file} (${sample.failing.length} of ${plan.failing.length}, the file with the most): a candidate that still fails one of them ends there, for one file's run; one that passes them runs all the failing tests`);
      }
    }
    return this.sample ?? undefined;
  }

  /**
   * A run of `selected.failing` alone, judged against `selected`; undefined when the runner cannot select them. With
   * `share`, it may be a round of a process shared with other candidates.
   */
  private async runSelected(selected: PerTestPlan, fileText: string, label: string, timeoutMs?: number, how: SelectedHow = { alone: false, priority: RunPriority.first }): Promise<StageOneRun | undefined> {
    // Stage 1 asks only whether every failing test now passes: the first that does not answers it.
    const command = selectionCommand(selected.adapter, selected.base, selected.failing, { stopAtFirstFailure: true });
    if (!command) return undefined;
    const shared = how.share !== undefined && !how.alone && timeoutMs === undefined ? await this.batchOf(selected, command, how.priority)?.run(fileText, label, how.share.name, how.share.fullRunUnderway) : undefined;
    if (shared) return shared.run.verdict.cancelled ? { verdict: shared.run.verdict, tests: emptyEvidence } : judgeRun(shared.run, selected, 'failing-tests');
    const run = await this.options.limitedRun(fileText, label, { ...command, alone: how.alone }, timeoutMs || undefined, how.priority);
    return run.verdict.cancelled ? { verdict: run.verdict, tests: emptyEvidence } : judgeRun(run, selected, 'failing-tests');
  }

  /**
   * The shared stage-1 runs of `selected` (at `priority` in the request's queue), made once: mocha, pytest, jest and
   * vitest (their hooks run the rounds), under a per-run limit.
   */
  private batchOf(selected: PerTestPlan, command: ReporterRun, priority: number): StageOneBatch | undefined {
    if (!this.batches.has(selected)) {
      const { sharing, testTimeoutMs, slot, executor, logger } = this.options;
      const { ms: perRunMs = testTimeoutMs, basis } = runLimit(this.options.baselineLimit(), testTimeoutMs);
      const dialect = roundsDialectOf(selected.adapter);
      const run = (start: () => SharedStart | undefined) => slot(async () => {
        const what = start();
        return what ? executor.run(what.fileText, what.label, what.options) : undefined;
      }, priority);
      this.batches.set(selected, sharing && dialect && perRunMs !== undefined ? new StageOneBatch({ ...sharing, run, ...(logger ? { logger } : {}) }, dialect, command, perRunMs, basis) : null);
    }
    return this.batches.get(selected) ?? undefined;
  }
}
