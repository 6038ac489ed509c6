// The saved session's shape and its validation, without `vscode`, so a corrupt state is tested with plain node.
import type { SampleRecord } from '../../core/statistics/resultsFile';
import { isSampleOutcome } from '../../core/statistics/sessionStats';
import type { SampleOutcome } from '../../core/statistics/sessionStats';
import type { StoppedEarly } from '../../core/contract/fixRequest';
import { isLocalisedFrom } from './localisedTask';
import type { LocalisedFrom } from './localisedTask';

/** A verified candidate kept with its task, so the panel can reopen it later. */
export interface StoredCandidate {
  readonly index: number;
  readonly replacement: string;
  readonly label?: string;
  /** A model's repair round that produced it (2 and on); absent for the first round and for other providers. */
  readonly round?: number;
  readonly runsPassed: number;
  readonly runs: number;
  readonly durationMs: number;
  readonly changeSize: number;
  /** With per-test results: how many of the baseline's failing tests it fixed, and how many tests passed. */
  readonly testsFixed?: number;
  readonly testsPassed?: number;
  /** When its full runs ran only the tests that reach the change: how many, and how many cannot reach it. */
  readonly reachingTests?: { readonly ran: number; readonly cannotReach: number };
  /** Once the strength check ran on it: variants of its change tried, how many the tests caught, and the verdict. */
  readonly strength?: {
    readonly variants: number;
    readonly caught: number;
    readonly weak: boolean;
    /** Variants without an outcome (timed out twice, or left unrun by the check's budget); absent in older sessions: none. */
    readonly open?: number;
    /** Whether the decided variants settle it (strengthKnown); absent in older sessions: they do. */
    readonly known?: boolean;
    /** Variants the tests accept too, to be read as diffs against the fix. */
    readonly survivors?: ReadonlyArray<{ readonly label: string; readonly replacement: string }>;
    /** The candidate number (1-based) of the equivalent fix whose variants it shares; absent: its own ran. */
    readonly sharedWith?: number;
  };
  /** The strength check was cut short before this fix had a strength (its budget, the total timeout, a cancel): why. */
  readonly strengthCutShort?: string;
  /**
   * Once the behaviour check compared it: its behaviour among the verified fixes (1-based), how many there are, and
   * the note the list and the diff title show ("behaviour 1 of 2: pageCount(10, 5) → 2"); with several verified fixes,
   * the list's title ("2 fixes pass; they differ on pageCount(10, 5)"), absent in sessions saved before it.
   */
  readonly behaviour?: { readonly group: number; readonly groups: number; readonly note: string; readonly summary?: string };
}

/** One finished request. */
export interface StoredTask {
  readonly id: string;
  /** The document, as a URI string, and its path relative to the workspace folder. */
  readonly uri: string;
  readonly file: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** Offsets of the selection in the text the request started from, and that text's SHA-256. */
  readonly start: number;
  readonly end: number;
  readonly originalHash: string;
  readonly startedAt: number;
  readonly durationMs: number;
  /** First-run outcome of each sample: what the statistics count. */
  readonly outcomes: readonly SampleOutcome[];
  /** The same samples with what Export writes besides the outcome (absent in sessions saved by earlier versions). */
  readonly samples?: readonly SampleRecord[];
  /** Verified candidates, best first, duplicates left out. */
  readonly verified: readonly StoredCandidate[];
  readonly baselinePassed: boolean;
  readonly lost: number;
  /** Why the request ended early, as the engine said it: the kind for code, the message for people. */
  readonly stoppedEarly?: StoppedEarly;
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  /** Set when fault localisation chose the lines (a failing test, "Fix Failing Tests"); absent in older sessions. */
  readonly localisedFrom?: LocalisedFrom;
}


function isCandidate(value: unknown): value is StoredCandidate {
  const c = value as StoredCandidate;
  return typeof c === 'object' && c !== null && typeof c.index === 'number' && typeof c.replacement === 'string' &&
    typeof c.runsPassed === 'number' && typeof c.runs === 'number' && typeof c.durationMs === 'number' && typeof c.changeSize === 'number';
}

/** True when `value` has every field a task needs, with the right types. */
export function isStoredTask(value: unknown): value is StoredTask {
  const t = value as StoredTask;
  return typeof t === 'object' && t !== null &&
    typeof t.id === 'string' && typeof t.uri === 'string' && typeof t.file === 'string' &&
    Number.isInteger(t.startLine) && Number.isInteger(t.endLine) && Number.isInteger(t.start) && Number.isInteger(t.end) &&
    typeof t.originalHash === 'string' && typeof t.startedAt === 'number' && typeof t.durationMs === 'number' &&
    Array.isArray(t.outcomes) && t.outcomes.every(isSampleOutcome) &&
    (t.samples === undefined || (Array.isArray(t.samples) && t.samples.length === t.outcomes.length && t.samples.every((s) => isSampleOutcome(s?.outcome)))) &&
    Array.isArray(t.verified) && t.verified.every(isCandidate) &&
    typeof t.baselinePassed === 'boolean' && typeof t.lost === 'number' &&
    (t.localisedFrom === undefined || isLocalisedFrom(t.localisedFrom));
}

const STOP_KINDS: ReadonlySet<string> = new Set<StoppedEarly['kind']>(['cancelled', 'totalTimeout', 'providerError', 'baselineTimeout']);

/**
 * Sessions saved before the kind was stored kept only the engine's message; those words are the engine's own
 * (engine/openRequest.ts), so the kind is recovered from them once, here, and never read from prose again.
 */
function withStoppedEarlyKind(task: StoredTask): StoredTask {
  const stopped: unknown = task.stoppedEarly;
  if (stopped === undefined || (typeof stopped === 'object' && stopped !== null && STOP_KINDS.has((stopped as StoppedEarly).kind))) return task;
  const message = typeof stopped === 'string' ? stopped : String((stopped as { message?: unknown }).message ?? '');
  const kind: StoppedEarly['kind'] = message === 'cancelled' ? 'cancelled' : message.startsWith('total timeout') ? 'totalTimeout' : 'providerError';
  return { ...task, stoppedEarly: { kind, message } };
}

/** The tasks in a saved state, or none and why, when it is not a well-formed list of tasks (never throws). */
export function loadSession(saved: unknown): { readonly tasks: readonly StoredTask[]; readonly problem?: string } {
  if (saved === undefined) return { tasks: [] };
  if (Array.isArray(saved) && saved.every(isStoredTask)) return { tasks: saved.map(withStoppedEarlyKind) };
  const bad = Array.isArray(saved) ? saved.findIndex((t) => !isStoredTask(t)) : -1;
  return {
    tasks: [],
    problem: `The saved Verified Fix statistics were unreadable (${bad >= 0 ? `task ${bad + 1} is malformed` : 'not a list of tasks'}), so the session was reset.`,
  };
}
