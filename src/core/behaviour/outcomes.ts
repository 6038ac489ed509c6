// What a replayed call did, read back from a replay run: compared by deep equality, shown as short text.
import { inspect, isDeepStrictEqual } from 'node:util';
import { deserialize } from 'node:v8';
import type { ReplayInput } from './neighbours';

/**
 * One call's outcome as the harness packed it: a value returned or resolved, an exception (its name and message),
 * a timeout, or `skipped` (the run's budget ran out before it). `args` are the arguments after the call, so an
 * in-place change shows; `text` stands in for a value that could not be copied.
 */
export interface Outcome {
  readonly kind: 'returned' | 'resolved' | 'threw' | 'rejected' | 'timeout' | 'skipped';
  readonly value?: unknown;
  readonly name?: string;
  readonly message?: string;
  readonly args?: unknown;
  readonly text?: string;
  readonly argsText?: string;
  /** A Python outcome's canonical text (value and arguments after the call): equal keys are equal outcomes. */
  readonly key?: string;
}

const KINDS = new Set(['returned', 'resolved', 'threw', 'rejected', 'timeout', 'skipped']);

/** The outcomes of one replay run, or why they cannot be used: the results are checked, never trusted to be well formed. */
export function readResults(bytes: Buffer | undefined, inputs: number): { outcomes: Outcome[] } | { problem: string } {
  if (!bytes || bytes.length === 0) return { problem: 'its replay wrote no results' };
  let results: unknown;
  try {
    results = deserialize(bytes);
  } catch {
    return { problem: 'its replay results could not be read' };
  }
  if (typeof results !== 'object' || results === null) return { problem: 'its replay results could not be read' };
  const { problem, outcomes } = results as { problem?: unknown; outcomes?: unknown };
  if (typeof problem === 'string') return { problem: problem.slice(0, 300) };
  if (!Array.isArray(outcomes) || outcomes.length !== inputs) return { problem: `its replay results hold ${Array.isArray(outcomes) ? outcomes.length : 'no'} outcomes for ${inputs} inputs` };
  const read: Outcome[] = [];
  for (const packed of outcomes) {
    let outcome: unknown;
    try {
      outcome = packed instanceof Uint8Array ? deserialize(packed) : undefined;
    } catch {
      outcome = undefined;
    }
    const kind = (outcome as { kind?: unknown } | undefined)?.kind;
    if (typeof kind !== 'string' || !KINDS.has(kind)) return { problem: 'its replay results hold an outcome that is not one' };
    read.push(outcome as Outcome);
  }
  return { outcomes: read };
}

/** Whether an outcome says anything: a timeout or a skipped call is no behaviour to compare. */
export const decided = (o: Outcome): boolean => o.kind !== 'timeout' && o.kind !== 'skipped';

/** Same kind and, deeply, the same value (or exception name and message) and the same arguments after the call. */
export function sameOutcome(a: Outcome, b: Outcome): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'threw' || a.kind === 'rejected') return a.name === b.name && a.message === b.message;
  if (a.key !== undefined || b.key !== undefined) return a.key === b.key;
  if (a.text !== undefined || b.text !== undefined) return a.text === b.text && a.argsText === b.argsText;
  return sameValue(a.value, b.value) && isDeepStrictEqual(a.args, b.args);
}

/** Deep equality, except that 0 and -0 are one number (as `===` has it): `Math.ceil(-0.2)` is no behaviour of its own. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  return isDeepStrictEqual(a, b);
}

const SHORT = { depth: 3, breakLength: Infinity, maxArrayLength: 12, maxStringLength: 60, compact: true } as const;
export const showValue = (value: unknown): string => inspect(value, SHORT);

/** The call as it reads in code: `pageCount(10, 5)`; a method's `this` follows. */
export function showCall(name: string, input: ReplayInput): string {
  const args = input.args.map(showValue).join(', ');
  return input.self === undefined ? `${name}(${args})` : `${name}(${args}) on ${showValue(input.self)}`;
}

/** An outcome as text: the value, `throws TypeError: …`, `timed out`; with the arguments when the call changed them. */
export function showOutcome(outcome: Outcome, input?: ReplayInput): string {
  switch (outcome.kind) {
    case 'threw':
    case 'rejected':
      return `${outcome.kind === 'threw' ? 'throws' : 'rejects with'} ${outcome.name}: ${(outcome.message ?? '').slice(0, 80)}`;
    case 'timeout':
      return 'timed out';
    case 'skipped':
      return 'not run';
    default: {
      const value = outcome.text ?? showValue(outcome.value);
      const shown = outcome.kind === 'resolved' ? `resolves to ${value}` : value;
      const changedArgs = input && outcome.text === undefined && !isDeepStrictEqual(outcome.args, input.args);
      return changedArgs ? `${shown} (arguments left as ${showValue(outcome.args)})` : shown;
    }
  }
}
