// The behaviour check's input and budgets per level, shared by the JavaScript and the Python check.
import type { Logger } from '../base/logger';
import type { StrengthChoice } from '../contract/choices';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutedRun, TestExecutor } from '../execution/executor';
import type { ReporterRun } from '../testResults/reporterCommand';
import { shellQuote } from '../testResults/shell';
import { MAX_RECORDING_BYTES, RECORD_VARIABLE } from './instrument';
import { RECORDING_FILE } from './recording';

export type BehaviourLevel = Exclude<StrengthChoice, 'off'>;

/** Inputs replayed (observed ones first), the time limit of one call, and the replay's whole call budget. */
export const BUDGETS: Record<BehaviourLevel, { inputs: number; observed: number; perCallMs: number; callBudgetMs: number }> = {
  quick: { inputs: 300, observed: 100, perCallMs: 100, callBudgetMs: 3000 },
  thorough: { inputs: 3000, observed: 500, perCallMs: 500, callBudgetMs: 20000 },
};
/** A replay run's limit beyond its call budget: the interpreter's start and the module's own loading. */
export const REPLAY_START_MS = 15000;
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;

/** The report of a check that compared nothing. */
export const EMPTY_REPORT = { observed: 0, generated: 0, failingTestInputs: 0, fixes: [], groups: [], pairs: [] };

export interface BehaviourCheck {
  readonly level: BehaviourLevel;
  readonly executor: Pick<TestExecutor, 'run'>;
  readonly slot: <T>(run: () => Promise<T>) => Promise<T>;
  readonly workspace: string;
  readonly languageId: string;
  readonly relativePath: string;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  /** The verified fixes, best first: their index and whole file text. */
  readonly fixes: ReadonlyArray<{ readonly index: number; readonly fileText: string }>;
  /** The whole suite's command, as the request runs it. */
  readonly testCommand: string;
  /** Only the failing tests, when the runner can select them: their inputs are told from the others'. */
  readonly failingTests?: ReporterRun;
  /** The request's limit of one test run: a recording run may use that much time it could run (`checkLimits`). */
  readonly testTimeoutMs: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * A check run's limits: `ms` of time it could run, up to twice the request's test timeout of wall time (the most the
 * executor gives a run). Its inputs and its comparison must not depend on how loaded the machine is, so waiting for a
 * CPU (the request's own parallel runs, other builds) does not count, as it does not for a candidate's baseline limit.
 */
export function checkLimits(check: BehaviourCheck, ms: number): { timeoutMs: number; waitingExtendsUpToMs: number } {
  return { timeoutMs: ms, waitingExtendsUpToMs: 2 * check.testTimeoutMs };
}

/** What a recording run wrote, and why it was cut short when it was (a timeout, a crash): its file is partial then. */
export interface RecordedRun {
  readonly bytes: Buffer;
  readonly cut?: string;
}

/**
 * A replay run's results file (`fileName` in its output folder) given to `parse` (undefined when it is over
 * MAX_RESULTS_BYTES), a timeout said as such, and the folder removed: the same for the JavaScript and the Python harness.
 */
export async function readReplayResults<R extends object>(
  executed: ExecutedRun, fileName: string, parse: (content: Buffer | undefined) => R | { problem: string },
): Promise<R | { problem: string }> {
  if (!executed.outputDir) return { problem: `its replay run failed: ${executed.verdict.reason ?? executed.verdict.status}` };
  try {
    const file = join(executed.outputDir, fileName);
    const read = parse((await stat(file)).size > MAX_RESULTS_BYTES ? undefined : await readFile(file));
    if ('problem' in read && executed.verdict.status === 'timeout') return { problem: 'its replay timed out' };
    return read;
  } catch {
    return { problem: 'its replay wrote no results' };
  } finally {
    await rm(executed.outputDir, { recursive: true, force: true });
  }
}

/**
 * One run of the unmodified code's tests (`run`, else the whole command) with a recording prologue in `fileText`: the
 * file it recorded (empty when it wrote none, or far more than the prologue's cap, which the prologue alone cannot
 * write) and why the run was cut short, a failed run said as such, or undefined when cancelled. Failing tests are
 * what the unmodified code has, not a cut. The same for the JavaScript and the Python prologue.
 */
export async function runRecording(check: BehaviourCheck, fileText: string, label: string, run: ReporterRun | undefined): Promise<RecordedRun | { problem: string } | undefined> {
  // Exported, not a prefix: a resolved npm script is `export PATH=…; exec node --test`, where a prefix would reach only `export`.
  const command = (report: string, out?: string) => `export ${RECORD_VARIABLE}=${shellQuote(join(out ?? '', RECORDING_FILE))}; ${run ? run.command(report, out) : check.testCommand}`;
  const outputFiles = { ...run?.outputFiles, [RECORDING_FILE]: '' };
  const executed = await check.slot(() => check.executor.run(fileText, label, { command, outputFiles, ...checkLimits(check, check.testTimeoutMs) }));
  const { verdict } = executed;
  if (verdict.cancelled) return undefined;
  if (!executed.outputDir) return { problem: `the recording run failed: ${verdict.reason ?? verdict.status}` };
  const cut = verdict.status === 'timeout' || verdict.status === 'error' ? { cut: verdict.reason ?? verdict.status } : {};
  try {
    const file = join(executed.outputDir, RECORDING_FILE);
    return { bytes: (await stat(file)).size > 2 * MAX_RECORDING_BYTES ? Buffer.alloc(0) : await readFile(file), ...cut };
  } catch {
    return { bytes: Buffer.alloc(0), ...cut };
  } finally {
    await rm(executed.outputDir, { recursive: true, force: true });
  }
}

/** A recording the check did not ask for (the runner cannot select the failing tests): nothing, and nothing cut. */
export const NOT_RECORDED: RecordedRun = { bytes: Buffer.alloc(0) };

/**
 * The two recordings as the check uses them, and what they lack, each said in the log and in the report's reason.
 * The whole suite's run is where the inputs come from: a cut one gives the inputs recorded until then. The failing
 * tests' run only tells their inputs from the others' (the whole suite runs those tests too), and a cut one cannot
 * tell which are theirs: it is dropped, and every changed input counts as beyond the failing tests.
 */
export function settleRecordings(check: BehaviourCheck, failing: RecordedRun | { problem: string }, all: RecordedRun | { problem: string }): { failing: Buffer; all: Buffer; notes: string[] } {
  const notes: string[] = [];
  const keptFailing = 'bytes' in failing && !failing.cut ? failing.bytes : Buffer.alloc(0);
  if ('problem' in failing) notes.push(`${failing.problem.replace('the recording run', "the failing tests' recording run")}, so which inputs are theirs is not known`);
  else if (failing.cut) notes.push(`the failing tests' recording run was cut short (${failing.cut}), so which inputs are theirs is not known`);
  if ('problem' in all) notes.push(all.problem.replace('the recording run', "the whole suite's recording run"));
  else if (all.cut) notes.push(`the whole suite's recording run was cut short (${all.cut}): only the inputs it recorded until then are replayed`);
  for (const note of notes) check.logger.warn(`behaviour check: ${note}`);
  return { failing: keptFailing, all: 'bytes' in all ? all.bytes : Buffer.alloc(0), notes };
}

/** A compared report's reason: what its recordings lacked, when they lacked anything. */
export function notesReason(notes: readonly string[]): { reason?: string } {
  return notes.length > 0 ? { reason: notes.join('; ') } : {};
}
