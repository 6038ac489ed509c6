// How a verified candidate is described in the list and the diff title, without `vscode` so it is tested with node.
import { provenByTests, verifiedOn } from '../../core/verification/evidence';
import type { StoredCandidate } from './sessionSchema';

/** The CLI's words for a fix the strength check did not reach ("strength: not checked (…)"), shortened for a list row. */
export const STRENGTH_CUT_SHORT = 'strength not checked';

/**
 * "weak tests: 4 of 10 variants also pass" / "tests pin it: 10 of 10 variants caught" (with "shared with candidate 2"
 * when an equivalent fix's variants stood in); "strength not checked" when the check ended or was not started first; empty before it.
 */
function strengthLabel(c: StoredCandidate): string {
  if (c.strengthCutShort && !c.strength) return STRENGTH_CUT_SHORT;
  const s = c.strength;
  if (!s || s.variants === 0) return '';
  const shared = s.sharedWith !== undefined ? ` (shared with candidate ${s.sharedWith})` : '';
  const open = s.open ?? 0;
  const decided = s.variants - open;
  if (s.known === false) return `strength unknown: ${open} of ${s.variants} variants without an outcome${shared}`;
  const undecided = open > 0 ? `, ${open} without an outcome` : '';
  return s.weak ? `weak tests: ${decided - s.caught} of ${decided} variants also pass, review it${undecided}${shared}` : `tests pin it: ${s.caught} of ${decided} variants caught${undecided}${shared}`;
}

/**
 * "round 2 · fixes 2 failing tests · 148 others still pass · passed 2/2 runs, 1.4 s · tests pin it: 10 of 10 variants
 * caught" (the round for a model's repair rounds, the next part with per-test results, the last once the strength
 * check ran).
 */
export function verifiedLabel(c: StoredCandidate): string {
  const round = c.round !== undefined && c.round > 1 ? `round ${c.round} · ` : '';
  const proven = c.testsFixed !== undefined && c.testsPassed !== undefined ? `${provenByTests(c.testsFixed, c.testsPassed)} · ` : '';
  const strength = strengthLabel(c);
  // A session saved by another version may hold anything: only well-formed counts are shown.
  const reach = typeof c.reachingTests?.ran === 'number' && typeof c.reachingTests.cannotReach === 'number' ? `${verifiedOn(c.reachingTests)} · ` : '';
  const behaviour = c.behaviour ? ` · ${c.behaviour.note}` : '';
  return `${round}${reach}${proven}passed ${c.runsPassed}/${c.runs} run${c.runs === 1 ? '' : 's'}, ${(c.durationMs / 1000).toFixed(1)} s${strength ? ` · ${strength}` : ''}${behaviour}`;
}

/** "3 fixes, 2 behaviours" once the behaviour check grouped them; empty before it (or for a single fix). */
export function behaviourCount(candidates: readonly StoredCandidate[]): string {
  const groups = candidates.find((c) => c.behaviour)?.behaviour?.groups;
  if (!groups || candidates.length < 2) return '';
  return `${candidates.length} fixes, ${groups} behaviour${groups === 1 ? '' : 's'} on the inputs tried`;
}

/**
 * The list's title for `count` verified fixes at `where`: what the behaviour check found of them, else that the tests
 * do not decide between them.
 */
export function listTitle(candidates: readonly StoredCandidate[], where: string): string {
  const count = candidates.length;
  if (count < 2) return `1 verified fix for ${where}`;
  const summary = candidates.find((c) => c.behaviour?.summary)?.behaviour?.summary;
  if (summary) return `${where}: ${summary}`;
  const behaviours = behaviourCount(candidates);
  return `${count} different fixes pass for ${where}: the tests do not decide between them, so read each${behaviours ? ` (${behaviours})` : ''}`;
}
