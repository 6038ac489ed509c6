// One wording of what per-test results proved, shared by the CLI and the editor: "fixes 2 failing tests · 148 others still pass".
import type { CandidateResult, UnfinishedCandidate } from '../contract/fixRequest';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * "fixes 2 failing tests · 148 others still pass", from how many baseline failures a run fixed and how many tests
 * passed in it; the second half is left out when nothing else ran.
 */
export function provenByTests(fixed: number, passed: number): string {
  const others = passed - fixed;
  const fixes = `fixes ${plural(fixed, 'failing test', 'failing tests')}`;
  return others > 0 ? `${fixes} · ${plural(others, 'other still passes', 'others still pass')}` : fixes;
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;

/**
 * A candidate's runs in words, each one that did not pass named: "passed 1 of 2 runs; the 2nd timed out", or with
 * cheap confirmations "full suite passed; fixed tests passed 2/2 runs". A timeout is said as one, not as flakiness;
 * a run set aside says why. Empty for a single run.
 */
export function describeRuns(c: Pick<CandidateResult, 'runs' | 'flaky' | 'setAside' | 'confirmedOn' | 'reachingTests'>): string {
  if (c.runs.length <= 1) return '';
  const passes = c.runs.filter((r) => r.status === 'pass').length;
  // Every run ran the fixed tests; only the first ran everything else too.
  const first = c.reachingTests ? 'reaching tests passed' : 'full suite passed';
  const what = c.confirmedOn && c.runs[0].status === 'pass' ? `${first}; fixed tests passed ${passes}/${c.runs.length} runs` : `passed ${passes} of ${c.runs.length} runs`;
  const notes = c.runs.flatMap((r, i) => {
    if (r.status === 'pass') return [];
    const aside = c.setAside?.find((s) => s.run === i);
    const nth = `the ${ordinal(i + 1)}`;
    if (aside) return [`${nth} set aside (${aside.why})`];
    return [`${nth} ${r.status === 'timeout' ? 'timed out' : r.status === 'error' ? 'could not run' : 'failed'}`];
  });
  return [`${what}${c.flaky ? ', flaky' : ''}`, ...notes].join('; ');
}

/**
 * "verified on the 14 tests that reach this change (the other 803 cannot)" for a fix whose full runs ran only the
 * tests that reach it; '' for one that ran the whole command.
 */
export function verifiedOn(reach: CandidateResult['reachingTests']): string {
  if (!reach) return '';
  const others = reach.cannotReach > 0 ? ` (the other ${reach.cannotReach} cannot)` : '';
  return `verified on the ${plural(reach.ran, 'test that reaches', 'tests that reach')} this change${others}`;
}

/** What a candidate cut short after its failing tests passed is, in the words every front end uses. */
export const FULL_RUN_NOT_REACHED = 'passed the failing tests; full run not reached';

/**
 * "#1 and #4 passed the failing tests; full run not reached": the candidates a stop left one step short of verified,
 * or '' when there are none.
 */
export function describeUnfinished(list: readonly Pick<UnfinishedCandidate, 'index'>[] | undefined): string {
  if (!list || list.length === 0) return '';
  const numbers = list.map((c) => `#${c.index + 1}`);
  const who = numbers.length === 1 ? numbers[0] : `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return `${who} ${FULL_RUN_NOT_REACHED}`;
}
