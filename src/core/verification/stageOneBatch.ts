// Stage 1 shared: several candidates' failing-tests runs in one started runner, one round each (mocha's and jest's
// hooks and pytest's plugin run the rounds; roundDialects.ts reads them).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { ExecutedRun, RunOptions } from '../execution/executor';
import type { ReporterRun } from '../testResults/reporterCommand';
import { ROUNDS_OVERRUN_FILE, ROUNDS_PLAN_FILE, STRUCTURAL_STOPS, describeStop } from '../testResults/sharedRounds';
import type { Round, RoundsDialect } from './roundDialects';
import { shellQuote, withRequireHook } from '../testResults/shell';
import { seconds } from '../base/duration';
import { timeoutReason } from './timeLimits';

const textFile = (round: number) => `verified-fix-batch-${round}.txt`;

/** One candidate's stage-1 run waiting for a shared process. */
interface Waiting {
  readonly fileText: string;
  readonly label: string;
  /** As the log names it ("#3"). */
  readonly name: string;
  /** Its full run is underway already (a head start beside the baseline): a pass of its needs no runs of its own. */
  readonly fullRunUnderway: boolean;
  readonly done: (round: SharedRound | undefined) => void;
}

/**
 * A candidate's round of a shared process, as a run of its own. `afterOthers`: earlier rounds of other candidates ran
 * in the same process (it started only once the hook's checks found nothing they left): how candidates were grouped.
 */
export interface SharedRound {
  readonly run: ExecutedRun;
  readonly afterOthers: boolean;
}

/** What a shared process runs, decided when its slot is free: the first candidate's text, a label and the options. */
export interface SharedStart {
  readonly fileText: string;
  readonly label: string;
  readonly options: RunOptions;
}

export interface StageOneBatchOptions {
  /** The file under repair, relative to the workspace. */
  readonly relativePath: string;
  /** The request's parallel slots: the waiting runs are shared among this many processes. */
  readonly parallel: number;
  /**
   * Waits for a slot of the request, then calls `start` and runs what it returns as one process (with its text as
   * the file under repair); `start` returning undefined (nothing left to run) frees the slot at once.
   */
  readonly run: (start: () => SharedStart | undefined) => Promise<ExecutedRun | undefined>;
  readonly logger?: Logger;
}

/**
 * Collects the stage-1 runs of one selection and runs them in up to `parallel` processes, each process one round per
 * candidate. Which candidates a process takes is decided when its slot is free, from all that wait by then (those a
 * process that ended early left over, too), so they fill as few processes as the slots allow. A candidate's round is
 * its verdict; what a shared process did not finish (a crash, its limit, a round that did not load anew) runs again,
 * shared with the others left or on its own.
 * A candidate can make a later one in the same process fail (the hook ends the process where it sees how), never
 * verify it: a pass here is followed by the candidate's own full run, which it only repeats (as its cheap
 * confirmation, where confirmations are asked for).
 */
export class StageOneBatch {
  private waiting: Waiting[] = [];
  /** Processes waiting for a slot: each takes its share of `waiting` when it gets one. */
  private queued = 0;
  /** Whether a request for processes is due this turn. */
  private requesting = false;
  /** Set when a shared process finished one round only, for a reason the next would meet as well. */
  private unsharedBecause?: string;
  /** Whether a round of this request has passed. */
  private passed = false;
  /** Candidates waiting for their round whose full run is underway already (a head start). */
  private underway = 0;
  /** Shared processes that left no report at all. */
  private noReports = 0;
  /** Shared processes whose second round, the first one loaded anew, did not finish or could not load. */
  private secondRoundsLost = 0;

  /**
   * `perRunMs`: what one candidate's run may take (a round's limit, in CPU time), and `basis`, where it came from as a
   * timed-out verdict says it ("5× the baseline's 1.4 s"; absent: the test timeout).
   */
  constructor(
    private readonly options: StageOneBatchOptions, private readonly dialect: RoundsDialect, private readonly command: ReporterRun,
    private readonly perRunMs: number, private readonly basis?: string,
  ) {}

  /** The candidate's run, from a shared process; undefined: run it on its own. */
  run(fileText: string, label: string, name: string, fullRunUnderway = false): Promise<SharedRound | undefined> {
    if (this.unsharedBecause !== undefined) return Promise.resolve(undefined);
    if (fullRunUnderway) this.underway++;
    return new Promise((resolve) => {
      const done = (round: SharedRound | undefined) => {
        if (fullRunUnderway) this.underway--;
        resolve(round);
      };
      this.waiting.push({ fileText, label, name, fullRunUnderway, done });
      if (this.requesting) return;
      // Once the runs that start in this turn have joined: a process for every two, up to the slots.
      this.requesting = true;
      setImmediate(() => {
        this.requesting = false;
        this.request();
      });
    });
  }

  /** Queues processes for the waiting candidates: one per two of them, up to the slots (none already queued cover). */
  private request(): void {
    const wanted = Math.min(this.options.parallel, Math.floor(this.waiting.length / 2));
    if (wanted === 0 && this.queued === 0) return this.waiting.splice(0).forEach((w) => w.done(undefined));
    // All counted before any starts: a free slot starts its process at once, and it takes its share by that count.
    const adding = Math.max(0, wanted - this.queued);
    this.queued += adding;
    for (let i = 0; i < adding; i++) void this.sharedProcess();
  }

  /** One shared process: when its slot is free it takes its share of the waiting candidates, round-robin by rank. */
  private async sharedProcess(): Promise<void> {
    let group: Waiting[] = [];
    const run = await this.options.run(() => {
      // Never fewer than two each: the processes queued after this one may then find nothing left, and free their slots.
      const share = Math.max(1, Math.min(this.queued, Math.floor(this.waiting.length / 2)));
      this.queued--;
      // Round-robin: the best-ranked candidates start first, one in each of the processes still to start.
      group = this.waiting.filter((_, i) => i % share === 0);
      this.waiting = this.waiting.filter((_, i) => i % share !== 0);
      if (group.length < 2) return undefined;
      return this.start(group);
    });
    // Left with one candidate (or none): it runs on its own, as do the last ones no queued process will take.
    if (!run) return [...group, ...(this.queued === 0 ? this.waiting.splice(0) : [])].forEach((w) => w.done(undefined));
    await this.read(group, run);
  }

  /** What the process of `group` runs: the first candidate as a plain run, the others as rounds after it. */
  private start(group: readonly Waiting[]): SharedStart {
    // Until a candidate of the request has passed its failing tests, the first to pass ends its process (unless the
    // rounds left take less than the process took to start): the request's first fix is then shown about as early as
    // when every candidate had a process of its own. Not while a candidate whose full run is underway (a head start)
    // waits for its round, in this process or another: that one, the best ranked, is the likelier first fix, and its
    // pass needs no runs of its own, so ending a process early would only start another for the rounds left.
    const stopAfterPass = !this.passed && this.underway === 0;
    const plan = { target: this.options.relativePath, first: textFile(0), texts: group.slice(1).map((_, i) => textFile(i + 1)), roundMs: this.perRunMs, stopAfterPass };
    const texts = Object.fromEntries(group.map((w, i) => [textFile(i), w.fileText]));
    const { command, outputFiles } = this.command;
    const { variable, hook } = this.dialect;
    const withPlan = (run: string, outputDir: string) => {
      const planPath = join(outputDir, ROUNDS_PLAN_FILE);
      // Without its hook (a path NODE_OPTIONS cannot quote) the run is one round, as an ordinary one.
      return (hook && withRequireHook(run, variable, planPath, join(outputDir, hook.file))) ?? `${variable}=${shellQuote(planPath)} ${run}`;
    };
    return {
      fileText: group[0].fileText,
      label: `${group[0].label}s${group.length}`,
      options: {
        command: (reportPath, outputDir = '') => withPlan(command(reportPath, outputDir), outputDir),
        outputFiles: { ...outputFiles, ...texts, [ROUNDS_PLAN_FILE]: JSON.stringify(plan), ...(hook ? { [hook.file]: hook.source } : {}) },
        timeoutMs: this.perRunMs * group.length,
      },
    };
  }

  /** Gives each candidate of `group` its round, and sends what the process did not finish to run again. */
  private async read(group: readonly Waiting[], run: ExecutedRun): Promise<void> {
    if (run.verdict.cancelled) return group.forEach((w) => w.done({ run, afterOthers: false }));
    const parsed = run.verdict.status === 'error' ? undefined : this.dialect.parse(run.report);
    const rounds = parsed?.rounds ?? [];
    const unfinished = rounds.findIndex((round) => typeof round.ms !== 'number');
    const count = unfinished < 0 ? rounds.length : unfinished;
    const startupMs = Math.max(0, run.verdict.durationMs - rounds.slice(0, count).reduce((sum, r) => sum + (r.ms ?? 0), 0));
    for (let i = 0; i < count; i++) group[i].done({ run: roundRun(run, rounds[i], startupMs), afterOthers: i > 0 });
    if (rounds.slice(0, count).some((round) => !round.failed)) this.passed = true;
    const overrun = run.outputDir ? await readOverrun(join(run.outputDir, ROUNDS_OVERRUN_FILE)) : undefined;
    if (overrun && overrun.round === count && count < group.length) {
      // The round ran past its limit in CPU time. First in its process, it timed out as it would alone; after other
      // candidates' rounds, one of theirs could have made it loop, so it runs again on its own.
      if (count === 0) group[0].done({ run: overrunRun(run, overrun.cpuMs, this.perRunMs, this.basis), afterOthers: false });
      this.say(group, count, `#${count + 1}'s round ran past its limit (${seconds(overrun.cpuMs)} of CPU time)`, run.verdict);
      const rest = group.slice(count + 1);
      if (count > 0) group[count].done(undefined);
      for (const w of rest) void this.run(w.fileText, w.label, w.name, w.fullRunUnderway).then(w.done);
      return;
    }
    const stopped = parsed?.stopped;
    this.say(group, count, stopped ? describeStop(stopped) : parsed ? undefined : 'it left no shared report', run.verdict);
    // No report: the first candidate could not load before the rounds began (mocha 8 and later load the test files
    // before running them), or the hook cannot run rounds here; a second such process says it is the latter.
    // A second round lost twice: loading the project anew may not work here (a framework set up once per process).
    if (!parsed) this.noReports++;
    const implicated = unfinished >= 0 || stopped === undefined || stopped.stop === 'unloadable';
    if (count === 1 && (implicated || stopped.stop === 'notSame')) this.secondRoundsLost++;
    const structural = count <= 1 && stopped !== undefined && STRUCTURAL_STOPS.includes(stopped.stop);
    if (this.noReports >= 2 || this.secondRoundsLost >= 2 || structural) {
      const last = stopped ? describeStop(stopped) : 'it did not finish';
      this.unsharedBecause = structural ? last : this.noReports >= 2 ? 'two shared processes left no report' : `two shared processes lost their second round (the last: ${last})`;
      this.options.logger?.info(`stage 1 runs one process per candidate from here on: ${this.unsharedBecause}`);
    }
    const rest = group.slice(count);
    if (rest.length === 0) return;
    // Where the next round is what ended the process (it could not load, did not run the tests, or ran past the
    // limit or crashed), that candidate runs on its own; the others wait for a shared process again.
    const again = implicated ? rest.slice(1) : rest;
    if (implicated) rest[0].done(undefined);
    for (const w of again) void this.run(w.fileText, w.label, w.name, w.fullRunUnderway).then(w.done);
  }

  private say(group: readonly Waiting[], count: number, stopped: string | undefined, verdict: Verdict): void {
    const names = group.map((w) => w.name).join(', ');
    const end = count < group.length ? `; it ended after ${count}: ${stopped ?? verdict.reason ?? `exit ${verdict.exitCode}`}` : '';
    this.options.logger?.info(`stage 1 of candidates ${names} shared one ${this.dialect.runner} process (${seconds(verdict.durationMs)}), one round each${end}`);
  }
}

/** One round as a run of its own: its report, and a verdict by its failures; it took its time plus the process's start. */
function roundRun(run: ExecutedRun, round: Round, startupMs: number): ExecutedRun {
  const verdict: Verdict = { status: round.failed ? 'fail' : 'pass', exitCode: round.failed ? 1 : 0, durationMs: (round.ms ?? 0) + startupMs, output: '', stdout: '', stderr: '' };
  return { verdict, report: round.report, ...(run.cwd ? { cwd: run.cwd } : {}) };
}

/** The round that ran past its limit, and its CPU time, from the hook's file; undefined when no round did. */
async function readOverrun(file: string): Promise<{ round: number; cpuMs: number } | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const match = /^(\d+) (\d+)$/.exec(text?.trim() ?? '');
  return match ? { round: Number(match[1]), cpuMs: Number(match[2]) } : undefined;
}

/** A first round that ran past its limit, as the timed-out run of its own it stands for. */
function overrunRun(run: ExecutedRun, cpuMs: number, limitMs: number, basis: string | undefined): ExecutedRun {
  const reason = basis ? timeoutReason(limitMs, basis) : `timed out after ${seconds(limitMs)}`;
  const verdict: Verdict = { status: 'timeout', exitCode: null, durationMs: cpuMs, reason, cause: 'timeout', output: run.verdict.output, stdout: run.verdict.stdout, stderr: run.verdict.stderr };
  return { verdict, ...(run.cwd ? { cwd: run.cwd } : {}) };
}
