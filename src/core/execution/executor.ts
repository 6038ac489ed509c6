// The engine's one way of running tests: a TestExecutor runs a file text against the workspace's tests and says how it went.
import type { Verdict, VerdictCause } from '../contract/fixRequest';
import type { Protections } from '../contract/protections';

export interface RunOptions {
  /**
   * Run with no other run of the request active. Where the sandbox cannot keep runs apart, a candidate could rewrite
   * its siblings' copies; a pass only counts once it repeats with nobody else running.
   */
  readonly alone?: boolean;
  /**
   * The command for this run, given the path its test reporter writes to (in a folder the run can write but not
   * list); the report comes back with the verdict. Default: the request's test command, no report. With
   * `outputFiles`, the second argument is the run's output folder.
   */
  readonly command?: (reportPath: string, outputDir?: string) => string;
  /**
   * Gives the run a folder of its own beside its tree, holding these files (a runner plugin; `{}` for none), which
   * the run may read and write: for what the caller reads after the run (coverage files). Its path comes back as
   * `ExecutedRun.outputDir`; it is removed with the request's folder, or sooner by the caller.
   */
  readonly outputFiles?: Readonly<Record<string, string>>;
  /**
   * A time limit of its own (a strength variant that runs far longer than its fix; a confirmation that timed out, once
   * more with longer), never above twice the request's.
   */
  readonly timeoutMs?: number;
  /** Up to this much wall time, waiting for a CPU does not count against `timeoutMs` (a limit from the baseline). */
  readonly waitingExtendsUpToMs?: number;
  /** Ends this run as cancelled (as the request's own cancel does): a head start the request no longer needs. */
  readonly signal?: AbortSignal;
  /**
   * Runs at the lowest CPU priority (`nice`): where runs outnumber the cores (a runner with workers), it takes only
   * the CPU time the others leave. Two runs on two cores still share the rest of the hardware.
   */
  readonly lowPriority?: boolean;
  /**
   * The unmodified code's run (the baseline): what jest caches in the run's private /tmp (every file it transformed)
   * and, in an overlay, the bytecode Python compiles (bytecodeSeed.ts) start each run after it warm, as the user's
   * second run is. A run that was cancelled or tampered with seeds nothing.
   */
  readonly seedsRunnerCache?: boolean;
  /**
   * Called once the run's process has started (not when the run ends before one could). The steps before it (the
   * tree, the sandbox's mounts) need the event loop: work that holds it, such as a local provider's parse, waits.
   */
  readonly onStarted?: () => void;
}

/** A finished run: its verdict and, when the command wrote one, the test reporter's file. */
export interface ExecutedRun {
  readonly verdict: Verdict;
  readonly report?: string;
  /** The folder the run ran in (removed by now): runners that report absolute paths are read relative to it. */
  readonly cwd?: string;
  /** The run's output folder, when `RunOptions.outputFiles` asked for one. */
  readonly outputDir?: string;
}

/**
 * Runs one request's test runs, wherever they happen (local copies today; a container engine, local or remote,
 * through the container sandbox backend). It comes ready from `prepareExecutor`: `run` any number of times, `dispose`
 * at the end.
 */
export interface TestExecutor {
  readonly protections: Protections;
  /** Whether a pass needs a run `alone` before it counts (the runs can reach each other's copies). */
  readonly runsCanInterfere: boolean;
  /** One line for the log: how each run gets a workspace of its own and what that costs. */
  readonly isolation: string;
  /** One run of `fileText` as the file under repair; never throws (a failure is an `error` verdict). */
  run(fileText: string, label: string, options?: RunOptions): Promise<ExecutedRun>;
  /** Waits for every run's leftovers to be removed. */
  dispose(): Promise<void>;
}

export function errorVerdict(reason: string, durationMs = 0, cause?: VerdictCause): Verdict {
  return { status: 'error', exitCode: null, durationMs, reason, ...(cause ? { cause } : {}), output: '', stdout: '', stderr: '' };
}

/** The verdict of a run that a cancel kept from running (or ended): never judged, never counted. */
export const cancelledVerdict = (): Verdict => ({ ...errorVerdict('cancelled', 0, 'cancelled'), cancelled: true });
