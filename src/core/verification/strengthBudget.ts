// The strength check's cost: its budget (a share of the request's wall time), the runs it starts, and which verified
// fixes are the same program written differently, so that they share one set of variants.
import type { ExecutedRun, RunOptions, TestExecutor } from '../execution/executor';
import type { StrengthCost } from '../contract/strength';
import { seconds } from '../base/duration';

/** By default the check may take up to this percent of the request's wall time (under a third, with room for the
 * runs the deadline ends, which take a moment to stop). */
export const DEFAULT_STRENGTH_BUDGET_PERCENT = 30;

/**
 * The time the check may take once the verdicts are in after `elapsedMs`, so that it is at most `percent` of the
 * whole request (elapsed + check): budget / (elapsed + budget) = percent / 100, however short the request. A short
 * request's check ends early rather than doubling it (#27: by default the check stays under a third of the
 * request); the best fix's variants go first, so it keeps those decided by then. Undefined: no budget (0, or 100
 * and above, which no finite budget reaches).
 */
export function strengthBudgetMs(elapsedMs: number, percent: number = DEFAULT_STRENGTH_BUDGET_PERCENT): number | undefined {
  if (!(percent > 0) || percent >= 100) return undefined;
  return Math.max(0, Math.floor((elapsedMs * percent) / (100 - percent)));
}

/** "strength check: 12 runs, 8.1 s, 22% of the request; 2 fixes shared an equivalent fix's variants" */
export function describeStrengthCost(cost: StrengthCost, requestMs: number): string {
  const share = requestMs > 0 ? `, ${Math.round((100 * cost.durationMs) / requestMs)}% of the request` : '';
  const shared = cost.sharedFixes > 0 ? `; ${cost.sharedFixes} fix${cost.sharedFixes === 1 ? '' : 'es'} shared an equivalent fix's variants` : '';
  const budget = cost.budgetMs !== undefined ? ` (budget ${seconds(cost.budgetMs)})` : '';
  return `strength check: ${cost.runs} run${cost.runs === 1 ? '' : 's'}, ${seconds(cost.durationMs)}${share}${budget}${shared}`;
}

/** Why a run was not started or was ended: the budget ran out. */
export const BUDGET_SPENT = 'the strength check\'s budget ran out';

/**
 * Counts the check's runs and holds them to a deadline: a run that would start after it is not started, and one in
 * flight gets at most the time left (ending there, it is cancelled: no verdict on the variant, not a timeout).
 */
export class StrengthMeter {
  private count = 0;
  private spent = false;

  /** `deadline`: a `performance.now()` time; undefined: no budget. */
  constructor(private readonly deadline: number | undefined) {}

  /** Runs started so far. */
  get runs(): number {
    return this.count;
  }

  /** Whether the budget ended a run (or kept one from starting). */
  get budgetSpent(): boolean {
    return this.spent;
  }

  /** `executor` with its runs counted and held to the deadline. */
  executor(executor: TestExecutor): TestExecutor {
    const run = async (fileText: string, label: string, options: RunOptions = {}): Promise<ExecutedRun> => {
      const left = this.deadline !== undefined ? this.deadline - performance.now() : undefined;
      if (left !== undefined && left <= 0) return this.cut();
      this.count++;
      const capped = left !== undefined && (options.timeoutMs === undefined || left < options.timeoutMs);
      const executed = await executor.run(fileText, label, capped ? { ...options, timeoutMs: Math.ceil(left) } : options);
      return capped && executed.verdict.status === 'timeout' ? this.cut() : executed;
    };
    return { protections: executor.protections, runsCanInterfere: executor.runsCanInterfere, isolation: executor.isolation, run, dispose: () => executor.dispose() };
  }

  private cut(): ExecutedRun {
    this.spent = true;
    return { verdict: { status: 'error', exitCode: null, durationMs: 0, reason: BUDGET_SPENT, cause: 'cancelled', cancelled: true, output: '', stdout: '', stderr: '' } };
  }
}

/** Quotes of the languages the check runs: their contents are kept as they are. */
const QUOTES = new Set(['"', "'", '`']);
/** Spacing next to these never changes a program in the languages the generator edits. */
const TIGHT = new Set(['(', ')', '[', ']', '{', '}', ',', ';']);

/**
 * A fix's whole file text with spacing normalised outside string literals: runs of spaces and tabs become one space,
 * spaces next to brackets, commas and semicolons go, trailing spaces and blank lines go. Line starts are kept
 * (indentation is syntax in Python). Two fixes with the same key are the same program.
 */
export function equivalenceKey(text: string): string {
  // One character per entry, joined once: appending to a string and reading its last character made each step copy
  // the text so far (184 ms for three fixes of a 4,500-line Python file).
  const out: string[] = [];
  let quote: string | undefined;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (lineStart && (ch === ' ' || ch === '\t')) {
      out.push(ch);
      continue;
    }
    lineStart = ch === '\n';
    if (quote) {
      out.push(ch);
      if (ch === '\\' && i + 1 < text.length) out.push(text[++i]);
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (QUOTES.has(ch)) quote = ch;
    if (ch === ' ' || ch === '\t') {
      const next = text[i + 1];
      const previous = out[out.length - 1];
      if (next === ' ' || next === '\t' || next === '\n' || next === '\r' || next === undefined || TIGHT.has(next) || TIGHT.has(previous) || previous === ' ') continue;
      out.push(' ');
      continue;
    }
    if (ch === '\r') continue;
    if (TIGHT.has(ch) && out[out.length - 1] === ' ') out.pop();
    out.push(ch);
  }
  return out.join('').replace(/\n{2,}/g, '\n').replace(/^\n+|\n+$/g, '');
}
