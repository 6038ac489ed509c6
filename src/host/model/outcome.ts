// What a finished request shows: the outcome as data (which list, which message, which actions), so the rules are tested with a table.
import type { FixResult } from '../../core/contract/fixRequest';
import { verifiedCandidates } from './taskRecord';

/** The buttons a message can offer; the presenter gives each its behaviour. */
export type OutcomeAction = 'Show Candidates' | 'Details' | 'Settings';

/** How a request ended, as the user is told. */
export interface Outcome {
  readonly kind: 'cancelled' | 'baselinePassed' | 'verified' | 'none';
  /**
   * The browser's list: `present` makes this request's candidates the browsable ones, `update` re-ranks the list that
   * went up when the verdicts were in, `keep` leaves the list as it is.
   */
  readonly list: 'present' | 'update' | 'keep';
  readonly message?: { readonly severity: 'info' | 'warn'; readonly text: string; readonly actions: readonly OutcomeAction[] };
  /** Open the candidates' QuickPick at once. */
  readonly openPicker: boolean;
}

/** What the result alone does not say. */
export interface OutcomeContext {
  /** "sum.js:7" */
  readonly location: string;
  /** The verified list went up when the verdicts were in, before the strength check ended. */
  readonly alreadyListed: boolean;
  /** The document no longer has the text the request started from (an early candidate applied, or an edit). */
  readonly documentChanged: boolean;
}

/** The outcome of a finished (not failed) request. Cancelled, then baseline passed, then verified, then none: the first that holds. */
export function outcomeOf(result: FixResult, context: OutcomeContext): Outcome {
  const { location, alreadyListed, documentChanged } = context;
  const verified = verifiedCandidates(result).length;
  const listed = alreadyListed ? 'keep' : 'present';
  if (result.stoppedEarly?.kind === 'cancelled') {
    const text = `Cancelled ${location}: ${result.samples} candidate(s) tested, ${verified} verified. Cancelled requests are left out of the statistics.`;
    return { kind: 'cancelled', list: listed, message: { severity: 'info', text, actions: [] }, openPicker: verified > 0 };
  }
  if (result.baselinePassed) {
    const text = `The tests already pass on the unmodified code of ${location}, so they do not catch this bug and a passing candidate proves little.`;
    return { kind: 'baselinePassed', list: listed, message: { severity: 'warn', text, actions: verified > 0 ? ['Show Candidates', 'Details'] : ['Details'] }, openPicker: false };
  }
  if (verified > 0 && alreadyListed) {
    const weak = result.verified.filter((i) => result.candidates.find((c) => c.index === i)?.strength?.weak).length;
    const text = `Weak tests at ${location}: ${weak} of ${verified} verified fix(es) have variants the tests also accept. Review before applying.`;
    return { kind: 'verified', list: 'update', ...(weak > 0 ? { message: { severity: 'warn', text, actions: [] } } : {}), openPicker: false };
  }
  if (verified > 0) {
    // An early candidate may already have been applied (or the file edited) while the rest ran: then say so instead
    // of pushing a list whose candidates Apply would refuse.
    if (!documentChanged) return { kind: 'verified', list: listed, openPicker: true };
    const text = `${verified} verified fix(es) for ${location}; the file changed during the request, so they no longer apply as they are.`;
    return { kind: 'verified', list: listed, message: { severity: 'info', text, actions: ['Show Candidates'] }, openPicker: false };
  }
  const flaky = result.candidates.filter((c) => c.flaky).length;
  const why = result.samples === 0 ? ` — no candidates were produced${result.lost.length ? ` (${result.lost[0].message})` : ''}` : flaky ? `; ${flaky} passed only some of their runs (flaky), so none is verified` : '';
  const early = result.stoppedEarly ? ` Stopped early: ${result.stoppedEarly.message}.` : '';
  // A next step, not only a verdict: more samples, a model, a wider selection, or why each candidate failed.
  const next = ' Next: more samples, a model provider or a wider selection (Settings), or read why each failed (Details).';
  const text = `No passing fix found (${result.passed} of ${result.samples} passed) for ${location}${why}.${early}${next}`;
  return { kind: 'none', list: listed, message: { severity: 'info', text, actions: ['Details', 'Settings'] }, openPicker: false };
}
