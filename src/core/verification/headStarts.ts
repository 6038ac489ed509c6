// Head starts: candidates' full runs started while the baseline runs, on a slot it leaves idle, each dropped when it
// runs too long or its candidate fails its failing tests, and taken as the candidate's full run where it passed.
import type { Logger } from '../base/logger';
import type { TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import { findTestRunEdits } from '../security/testRunEdits';
import type { ReporterRun } from '../testResults/reporterCommand';
import type { FullRun, LimitedRuns } from './limitedRuns';
import type { Reference } from './reference';
import { runLimit } from './timeLimits';

export interface HeadStartsOptions {
  readonly reference: Promise<Reference>;
  readonly testTimeoutMs?: number;
  readonly staged: boolean;
  readonly fullCommand: ReporterRun | undefined;
  readonly executor: TestExecutor;
  /** Whether a run of one slot would start at once (RunQueue.idle): while the baseline runs, a candidate's full run may start there. */
  readonly idleSlot?: () => boolean;
  readonly languageId: string;
  readonly slot: Slot;
  readonly signal: AbortSignal;
  /** Says when a head start begins, and why one is not the candidate's verdict. */
  readonly logger?: Logger;
}

/** A candidate's head start: its run, what drops it (the run then ends as cancelled), and whether it has ended. */
export interface HeadStart {
  readonly run: Promise<FullRun>;
  readonly drop: () => void;
  readonly ended: () => boolean;
}

/** One request's head starts, by candidate; each is taken once, by its candidate's verification. */
export class HeadStarts {
  private readonly started = new Map<number, HeadStart>();

  constructor(private readonly options: HeadStartsOptions, private readonly runs: LimitedRuns) {}

  /**
   * Starts candidate `index`'s full run at once, where the baseline still runs and leaves a slot idle: staged
   * candidates wait for the baseline's failing tests, so on two slots one would wait for nothing. It runs at the
   * lowest CPU priority, on what the baseline leaves. Where it passes, it is the full run the candidate has once it
   * passes its failing tests (the whole command: never fewer tests than that one); a candidate that fails them drops
   * it unread, and one that did not pass is run again, so no verdict rests on it but a pass.
   */
  begin(index: number, selection: string, replacement: string, fileText: string): void {
    const { staged, fullCommand, executor, idleSlot, languageId, logger } = this.options;
    if (this.runs.baselineIn || !staged || !fullCommand || executor.runsCanInterfere || !idleSlot?.()) return;
    if (findTestRunEdits(languageId, selection, replacement).length > 0) return;
    this.start(index, (drop) => this.runs.full(fileText, `c${index}h`, { headStart: drop }));
    logger?.info(`candidate #${index + 1}'s full run starts beside the baseline, on a slot the baseline leaves idle: it counts once the candidate passes its failing tests`);
  }

  /**
   * The candidate's full run: its head start where that passed. One that did not is not the verdict: it ran at the
   * lowest priority, where other runs can starve a test past its own timeout, so a run of its own decides.
   * Still running when its candidate passed its failing tests, it is that candidate's full run, and takes a slot as
   * one would: it gave its own back when the baseline was in, and at the lowest priority beside stage 1's processes
   * it would barely move until they ended.
   */
  async fullRun(head: HeadStart, index: number, fileText: string): Promise<FullRun> {
    const run = await (head.ended() ? head.run : this.options.slot(() => head.run, RunPriority.full));
    if (run.verdict.status === 'pass' || this.options.signal.aborted) return run;
    const why = run.verdict.cancelled ? "ran past a full run's limit and was dropped" : 'did not pass';
    this.options.logger?.info(`candidate #${index + 1}'s full run beside the baseline ${why}: a run of its own decides`);
    return this.runs.full(fileText, `c${index}`, { priority: RunPriority.full });
  }

  /**
   * Starts `run` as candidate `index`'s head start, handing it what drops it. Once the baseline is in, it is dropped
   * where it runs past the limit a full run of its own gets, from its own start: it holds no slot by then (it gave
   * its slot back, and takes only what the other runs leave), so ending it sooner would free nothing and throw away
   * a right fix's run that stage 1 starved. Not where the baseline stopped at its first failure: a full run takes
   * longer, and only the test timeout ends it.
   */
  private start(index: number, run: (drop: AbortSignal) => Promise<FullRun>): void {
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = run(controller.signal);
    let ended = false;
    void running.then(() => (ended = true), () => (ended = true));
    this.started.set(index, { run: running, drop: () => controller.abort(), ended: () => ended });
    void this.options.reference.then(({ limit }) => {
      // A baseline that stopped at its first failure (--bail) took less than a full run does: the test timeout bounds it.
      if (!limit || limit.failingTestsOnly) return;
      const { ms } = runLimit(limit, this.options.testTimeoutMs);
      if (ms === undefined) return;
      const timer = setTimeout(() => controller.abort(), Math.max(0, ms - (performance.now() - startedAt)));
      const clear = () => clearTimeout(timer);
      void running.then(clear, clear);
    });
  }

  /** Candidate `index`'s head start, once; undefined where it has none. */
  take(index: number): HeadStart | undefined {
    const head = this.started.get(index);
    this.started.delete(index);
    return head;
  }
}
