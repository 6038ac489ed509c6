// What a finished request shows: the outcome as data (which list, which message, which actions), so the rules are tested with a table.
import type { FixResult } from '../../core/contract/fixRequest';
import { EDITOR_NAMES, noFixAdvice } from '../../core/verification/noFixAdvice';
import { describeUnfinished } from '../../core/verification/evidence';
import { verifiedCandidates } from './taskRecord';

/** The buttons a message can offer; the presenter gives each its behaviour. */
export type OutcomeAction = 'Show Candidates' | 'Details' | 'Settings';

/** How a request ended, as the user is told. */
export interface Outcome {
  readonly kind: 'cancelled' | 'baselinePassed' | 'verified' | 'none' | 'baselineTimeout';
  /**
   * The browser's list: `present` makes this request's candidates the browsable ones, `update` re-ranks the list that
   * went up when the verdicts were in, `keep` leaves the list as it is.
   */
  readonly list: 'present' | 'update' | 'keep';
  readonly message?: { readonly severity: 'info' | 'warn'; readonly text: string; readonly actions: readonly OutcomeAction[] };
  /**
   * Open the candidates' QuickPick at once: only when the user has not moved on (OutcomeContext.idle), since a list
   * that opens by itself takes the keyboard. Otherwise the message says "Show Candidates" (and so does the status bar).
   */
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
  /**
   * The user has not touched an editor since the request started and the same editor is still active: opening the
   * list cannot take keystrokes meant for something else.
   */
  readonly idle: boolean;
  /** The list was already opened when the verdicts came in (alreadyListed and idle then). */
  readonly listOpened?: boolean;
}

/** The outcome of a finished (not failed) request. Cancelled, then baseline passed, then verified, then none: the first that holds. */
export function outcomeOf(result: FixResult, context: OutcomeContext): Outcome {
  const { location, alreadyListed, documentChanged, idle } = context;
  const verified = verifiedCandidates(result).length;
  const listed = alreadyListed ? 'keep' : 'present';
  const show: OutcomeAction[] = verified > 0 ? ['Show Candidates'] : [];
  if (result.stoppedEarly?.kind === 'cancelled') {
    const text = `Cancelled ${location}: ${result.samples} candidate(s) tested, ${verified} verified. Cancelled requests are left out of the statistics.`;
    return { kind: 'cancelled', list: listed, message: { severity: 'info', text, actions: idle ? [] : show }, openPicker: verified > 0 && idle };
  }
  if (result.stoppedEarly?.kind === 'baselineTimeout') {
    const advice = noFixAdvice(result, EDITOR_NAMES);
    const text = `Stopped ${location}: ${advice?.conclusion ?? result.stoppedEarly.message}. Next: ${advice?.next.join('; ') ?? `raise ${EDITOR_NAMES.testTimeout}`}. Left out of the statistics.`;
    return { kind: 'baselineTimeout', list: listed, message: { severity: 'warn', text, actions: ['Settings', 'Details'] }, openPicker: false };
  }
  if (result.baselinePassed) {
    const text = `The tests already pass on the unmodified code of ${location}, so they do not catch this bug and a passing candidate proves little.`;
    return { kind: 'baselinePassed', list: listed, message: { severity: 'warn', text, actions: [...show, 'Details'] }, openPicker: false };
  }
  if (verified > 0 && alreadyListed) {
    const weak = result.verified.filter((i) => result.candidates.find((c) => c.index === i)?.strength?.weak).length;
    const weakText = weak > 0 ? ` Weak tests: ${weak} of ${verified} have variants the tests also accept; review before applying.` : '';
    // The checks after the verdicts were stopped (a new request, Cancel, the total timeout): say so where the list is.
    const cut = result.strengthCutShort;
    const cutText = cut ? ` Stopped: ${cut.message}; ${cut.unchecked.length} verified fix(es) not checked for strength.` : '';
    if (context.listOpened) {
      const text = weak > 0 ? `Weak tests at ${location}: ${weak} of ${verified} verified fix(es) have variants the tests also accept. Review before applying.${cutText}` : `${verified} verified fix(es) for ${location}.${cutText}`;
      return { kind: 'verified', list: 'update', ...(weak > 0 || cut ? { message: { severity: weak > 0 ? 'warn' : 'info', text, actions: [] } } : {}), openPicker: false };
    }
    // The list did not open by itself: the result waits in this message and the status bar.
    return { kind: 'verified', list: 'update', message: { severity: weak > 0 ? 'warn' : 'info', text: `${verified} verified fix(es) for ${location}.${weakText}${cutText}`, actions: show }, openPicker: false };
  }
  if (verified > 0) {
    // An early candidate may already have been applied (or the file edited) while the rest ran: then say so instead
    // of pushing a list whose candidates Apply would refuse.
    if (documentChanged) {
      const text = `${verified} verified fix(es) for ${location}; the file changed during the request, so they no longer apply as they are.`;
      return { kind: 'verified', list: listed, message: { severity: 'info', text, actions: show }, openPicker: false };
    }
    if (idle) return { kind: 'verified', list: listed, openPicker: true };
    return { kind: 'verified', list: listed, message: { severity: 'info', text: `${verified} verified fix(es) for ${location}.`, actions: show }, openPicker: false };
  }
  const advice = noFixAdvice(result, EDITOR_NAMES);
  const unfinished = describeUnfinished(result.passedFailingTestsOnly);
  const early = result.stoppedEarly ? ` Stopped early: ${result.stoppedEarly.message}${unfinished ? `; ${unfinished} (not verified)` : ''}.` : '';
  // A next step, not only a verdict, chosen by why the candidates failed (core/verification/noFixAdvice.ts).
  const next = advice && advice.next.length > 0 ? ` Next: ${advice.next.join('; ')}.` : '';
  const text = `No passing fix found (${result.passed} of ${result.samples} passed) for ${location}: ${advice?.conclusion ?? 'nothing passed'}.${early}${next} Details groups the failures.`;
  return { kind: 'none', list: listed, message: { severity: 'info', text, actions: ['Details', 'Settings'] }, openPicker: false };
}
