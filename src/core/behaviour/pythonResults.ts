// Reads what the Python harness wrote: checked, never trusted to be well formed (the module under test ran in its
// process and could have written anything).
import type { Outcome } from './outcomes';

export interface PythonReplay {
  readonly observed: number;
  readonly generated: number;
  readonly failingInputs: number;
  /** Each input as a call, in replay order, and whether a failing test made it. */
  readonly calls: readonly string[];
  readonly fromFailing: readonly boolean[];
  readonly outcomes: Outcome[];
}

const KINDS = new Set(['returned', 'threw', 'timeout', 'skipped']);
const MAX_TEXT = 20_000;

const str = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const count = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function outcomeOf(value: unknown): Outcome | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, key, text, name, message } = value as Record<string, unknown>;
  if (typeof kind !== 'string' || !KINDS.has(kind)) return undefined;
  if (kind === 'returned') return str(key, 2 * MAX_TEXT + 1) && str(text, 1000) ? { kind, key, text } : undefined;
  if (kind === 'threw') return str(name, 200) && str(message, 1000) ? { kind, name, message } : undefined;
  return { kind: kind as Outcome['kind'] };
}

/** The replay's results; a status the harness decided on (`notReplayable`, `noInputs`); or why they cannot be used. */
export function readPythonResults(text: string | undefined): PythonReplay | { status: 'notReplayable' | 'noInputs'; reason: string } | { problem: string } {
  if (!text) return { problem: 'its replay wrote no results' };
  let results: unknown;
  try {
    results = JSON.parse(text);
  } catch {
    return { problem: 'its replay results could not be read' };
  }
  if (typeof results !== 'object' || results === null) return { problem: 'its replay results could not be read' };
  const r = results as Record<string, unknown>;
  if (typeof r.problem === 'string') return { problem: r.problem.slice(0, 300) };
  if ((r.status === 'notReplayable' || r.status === 'noInputs') && typeof r.reason === 'string') return { status: r.status, reason: r.reason.slice(0, 300) };
  const { calls, fromFailing, outcomes } = r;
  if (!Array.isArray(calls) || !Array.isArray(fromFailing) || !Array.isArray(outcomes)) return { problem: 'its replay results could not be read' };
  if (!count(r.observed) || !count(r.generated) || !count(r.failingInputs) || calls.length !== r.observed + r.generated) return { problem: 'its replay results could not be read' };
  if (outcomes.length !== calls.length || fromFailing.length !== calls.length) return { problem: `its replay results hold ${outcomes.length} outcomes for ${calls.length} inputs` };
  if (!calls.every((c) => str(c, 4000)) || !fromFailing.every((f) => typeof f === 'boolean')) return { problem: 'its replay results could not be read' };
  const read = outcomes.map(outcomeOf);
  if (read.some((o) => o === undefined)) return { problem: 'its replay results hold an outcome that is not one' };
  return { observed: r.observed, generated: r.generated, failingInputs: r.failingInputs, calls, fromFailing, outcomes: read as Outcome[] };
}
