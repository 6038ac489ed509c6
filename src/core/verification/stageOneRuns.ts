// Stage 1 of a candidate or variant: the baseline's failing tests alone (one file's first, where they span several),
// each run in a process of its own or as a round of one shared with other candidates (stageOneBatch.ts).
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { ExecutedRun, RunOptions, TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import { selectionCommand, selectionStopsInOrder } from '../testResults/selection';
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

/** Stage 1's runs: `sample`, a first run of one file's failing tests, if any; `all`, the run of every failing test. */
interface Stages {
  readonly sample?: PerTestPlan;
  readonly all: PerTestPlan;
}

/** A stage-1 run's verdict and evidence. */
export interface StageOneRun {
  readonly verdict: Verdict;
  readonly tests: TestEvidence;
}

/** The stage-1 runs of one verifier: how they run the failing tests and the shared processes, each worked out once. */
export class StageOneRuns {
  /** How stage 1 runs the baseline's failing tests, worked out once; see stagesOf. */
  private stages?: Stages;
  /** Per selection, the runs shared among candidates (null: the runner or the request cannot share them). */
  private readonly batches = new Map<PerTestPlan, StageOneBatch | null>();

  constructor(private readonly options: StageOneOptions) {}

  /**
   * Stage 1 of a candidate or variant: where the failing tests span several files and the runner cannot stop at the
   * first failure in order, first those of one (a run that did not pass ends the stage there), then all of them,
   * ahead of other candidates' first runs; else all of them in one run (stagesOf). With `share` (the
   * candidate's name for the log), each of its runs may be a round of a process shared with others; never a
   * variant's: there a failure is what counts, and an earlier round could cause one.
   */
  async run(fileText: string, label: string, timeoutMs?: number, share?: Sharing): Promise<StageOneRun | undefined> {
    const { plan } = await this.options.reference;
    const sample = plan && this.options.staged ? this.stagesOf(plan).sample : undefined;
    const first = sample ? await this.runSelected(sample, fileText, `${label}0`, timeoutMs, { alone: false, priority: RunPriority.first, share }) : undefined;
    if (first && (first.verdict.cancelled || first.verdict.status !== 'pass')) return first;
    // Those that passed the sample's tests in one process come back together: they share the next one as well.
    return this.failingTests(fileText, label, timeoutMs, { alone: false, priority: first ? RunPriority.failingTests : RunPriority.first, share });
  }

  /** Only the tests that failed on the baseline; undefined when there is nothing to select. */
  async failingTests(fileText: string, label: string, timeoutMs?: number, how?: SelectedHow): Promise<StageOneRun | undefined> {
    const { plan } = await this.options.reference;
    return plan && this.options.staged && plan.failing.length > 0 ? this.runSelected(this.stagesOf(plan).all, fileText, label, timeoutMs, how) : undefined;
  }

  /**
   * Where the failing tests span several files, the file with the most (failingSample) goes first: a candidate that
   * still fails one of its tests most likely fails stage 1 there. A runner that stops at the first failure in the
   * order given (mocha, pytest) runs them all at once, that file's first: the candidate that fails there ends there
   * just the same, and one that passes needs no second process. The others run that file alone first, then all the
   * failing tests. Worked out once, and said once in the log. Either order is one the baseline did not run (that
   * file first, or alone): where tests leave state for each other, a test may behave differently after another.
   */
  private stagesOf(plan: PerTestPlan): Stages {
    if (!this.stages) {
      const sample = failingSample(plan);
      if (!sample) this.stages = { all: plan };
      else {
        const counts = `${sample.failing.length} of ${plan.failing.length}, the file with the most`;
        const file = fileOf(sample.failing[0]);
        if (selectionStopsInOrder(plan.adapter.name, plan.base)) {
          const first = new Set(sample.failing);
          this.stages = { all: { ...plan, failing: [...sample.failing, ...plan.failing.filter((id) => !first.has(id))] } };
          this.options.logger?.info(`stage 1 runs the failing tests of ${file} first (${counts}), then the others in the same run: ${plan.adapter.name} stops at the first that still fails, so a candidate that fails one of that file's ends there`);
        } else {
          this.stages = { sample, all: plan };
          this.options.logger?.info(`stage 1 starts with the failing tests of ${file} (${counts}): a candidate that still fails one of them ends there, for one file's run; one that passes them runs all the failing tests`);
        }
      }
    }
    return this.stages;
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
