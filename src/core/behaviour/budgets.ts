// The behaviour check's budgets per level, shared by the JavaScript and the Python check.
import type { StrengthChoice } from '../contract/choices';

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
