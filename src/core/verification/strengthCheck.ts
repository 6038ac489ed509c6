// How much "verified" proves: variants of a verified fix's changed lines (the offline generator's edits, on the fixed
// text) run through the same verifier. A variant that passes too is a different program the tests accept.
import { unifiedDiff } from '../base/diffing';
import type { CandidateResult, FixResult } from '../contract/fixRequest';
import { generateMutants } from '../mutation/generator';
import { applyReplacement } from '../base/textRange';
import type { StrengthChoice } from '../contract/choices';
import type { SurvivingVariant, TestStrength } from '../contract/strength';
import { steeringReason } from './strengthSteering';
import { controlText, withControlComment } from './controlText';


/**
 * A variant that timed out runs once more with this many times its first limit before it is called undecided. Its
 * limits count only time the run could run (waiting for a CPU is not counted), so the load that slows every run
 * needs no larger margin; each extra multiple is paid in full by every variant that loops.
 */
export const RETRY_SLOWDOWN = 2;

/** Variants tried per verified candidate. */
const BUDGET: Record<Exclude<StrengthChoice, 'off'>, number> = { quick: 10, thorough: 40 };

/** How many variants a check of `level` tries per fix (at most: a short change may give fewer). */
export function strengthVariantCount(level: Exclude<StrengthChoice, 'off'>): number {
  return BUDGET[level];
}

export interface Variant extends SurvivingVariant {
  /** The whole file with the variant in place of the fix's changed lines. */
  readonly fileText: string;
}

/** Offsets in `fixed` of the lines the fix changed: the replacement less the lines it shares with the selection at either end. */
function changedRegion(selection: string, fixed: string, fixStart: number, fixEnd: number): { start: number; end: number } {
  const before = selection.split('\n');
  const after = fixed.slice(fixStart, fixEnd).split('\n');
  let head = 0;
  while (head < before.length - 1 && head < after.length - 1 && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - 1 - head && tail < after.length - 1 - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const start = fixStart + after.slice(0, head).reduce((sum, line) => sum + line.length + 1, 0);
  const end = fixEnd - after.slice(after.length - tail).reduce((sum, line) => sum + line.length + 1, 0);
  return end > start ? { start, end } : { start: fixStart, end: fixEnd };
}

export interface VariantInput {
  readonly languageId: string;
  readonly relativePath: string;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
  readonly level: Exclude<StrengthChoice, 'off'>;
}

/** The fix of `input` applied to its file, and where in it the lines it changed are. */
function fixedText(input: Omit<VariantInput, 'level'>): { fixed: string; region: ReturnType<typeof changedRegion> } {
  const { originalText, start, end, replacement } = input;
  const fixed = applyReplacement(originalText, start, end, replacement);
  return { fixed, region: changedRegion(originalText.slice(start, end), fixed, start, fixed.length - (originalText.length - end)) };
}

/** The fix's control text (controlText: comments inside its change and at the end), or undefined for a language without comments here. */
export function controlOf(input: Omit<VariantInput, 'level'>): Promise<string | undefined> {
  const { fixed, region } = fixedText(input);
  return controlText(fixed, region, input.languageId);
}

/** Up to the level's budget of variants of the fix's changed lines, likeliest first; never the unfixed code itself. */
export async function strengthVariants(input: VariantInput): Promise<Variant[]> {
  const { originalText, start, end } = input;
  const { fixed, region } = fixedText(input);
  const budget = BUDGET[input.level];
  const { mutants } = await generateMutants({ languageId: input.languageId, fileText: fixed, start: region.start, end: region.end, limit: budget + 1 });
  const variants: Variant[] = [];
  for (const mutant of mutants) {
    const text = fixed.slice(0, region.start) + mutant.text + fixed.slice(region.end);
    if (text === originalText) continue; // known to fail: the baseline did
    const replacement = text.slice(start, text.length - (originalText.length - end));
    // Run with the comment at the end of the file, as the control run has: outside the change, the variants and the
    // control differ from the fix in the same way, so a fix that tells them apart by that text is found by the control.
    const fileText = withControlComment(text, input.languageId) ?? text;
    variants.push({ fileText, replacement, label: mutant.label, diff: unifiedDiff(input.relativePath, fixed, text) });
    if (variants.length === budget) break;
  }
  return variants;
}

/** What one variant's runs decided; `undecided` when it ran past its limit twice. */
export type VariantOutcome = 'caught' | 'survived' | 'undecided';

/** The numbers of a fix's check; an outcome left undefined is a variant the check's budget did not let run. */
export function testStrength(variants: readonly Variant[], outcomes: readonly (VariantOutcome | undefined)[]): TestStrength {
  const survivors = variants.filter((_, i) => outcomes[i] === 'survived').map(({ replacement, diff, label }) => ({ replacement, diff, label }));
  const caught = outcomes.filter((o) => o === 'caught').length;
  const notRun = variants.filter((_, i) => outcomes[i] === undefined).length;
  const undecided = variants.length - caught - survivors.length - notRun;
  return {
    variants: variants.length, caught, survivors, weak: survivors.length * 10 > caught + survivors.length,
    ...(undecided > 0 ? { undecided } : {}), ...(notRun > 0 ? { notRun } : {}),
  };
}

/**
 * Whether the decided variants settle it. Weak is weak whatever the open ones (undecided, not run) would have done;
 * "pinned" needs so few open ones that even all of them surviving would not make it weak: a survivor runs the whole
 * suite, a caught variant mostly only the failing tests, so on a loaded machine it is the survivors that run out of
 * time, and the budget ends the check with the survivors' long runs still in flight.
 */
export function strengthKnown(s: TestStrength): boolean {
  if (s.caught + s.survivors.length === 0) return false;
  return s.weak || (s.survivors.length + openVariants(s)) * 10 <= s.variants;
}

/** How many of `variants` must be decided (all caught) before strengthKnown can say "pinned": all but a tenth. */
export function variantsToPin(variants: number): number {
  return variants - Math.floor(variants / 10);
}

/** Variants without an outcome: timed out twice, or left unrun by the check's budget. */
export function openVariants(s: TestStrength): number {
  return (s.undecided ?? 0) + (s.notRun ?? 0);
}

/**
 * Why the strength check left the verified fix `index` without a strength, or undefined when it did not: the fix's
 * own reason where the budget did not start it ("deciding #3 takes about 14.2 s …"), else why the check stopped.
 */
export function uncheckedBecause(cutShort: FixResult['strengthCutShort'], index: number): string | undefined {
  if (!cutShort?.unchecked.includes(index)) return undefined;
  return cutShort.reasons?.[index] ?? cutShort.message;
}

/** One line for a verified candidate; the numbers are always in it, where they came from when shared, and which tests ran. */
export function describeStrength(s: TestStrength): string {
  const own = `${describeOwnStrength(s)}${s.reachingTests && s.variants > 0 ? ` (${describeReach(s.reachingTests)})` : ''}`;
  if (!s.sharedFrom) return own;
  const why = s.sharedFrom.by === 'text' ? 'the same code once spacing is normalised' : 'the same outcome on every input the behaviour check tried';
  return `${own} (the variants of #${s.sharedFrom.index + 1}, an equivalent fix: ${why})`;
}

/** "the variants ran on the 3 tests that reach this change; the other 40 cannot" */
export function describeReach(reach: NonNullable<TestStrength['reachingTests']>): string {
  const tests = reach.ran === 1 ? '1 test that reaches' : `${reach.ran} tests that reach`;
  return `the variants ran on the ${tests} this change${reach.cannotReach > 0 ? `; the other ${reach.cannotReach} cannot` : ''}`;
}

function describeOwnStrength(s: TestStrength): string {
  if (s.variants === 0) return 'no variant of this change could be made, so how firmly the tests pin it is unknown';
  const open = openVariants(s);
  const decided = s.caught + s.survivors.length;
  const why = [
    ...(s.undecided ? [`${s.undecided} undecided: timed out`] : []),
    ...(s.notRun ? [`${s.notRun} not run: the strength check's budget ran out`] : []),
  ].join('; ');
  const aside = why ? ` (${why})` : '';
  if (!strengthKnown(s)) return `strength unknown: ${open} of ${s.variants} variants of this change have no outcome (${why}), too many for the ${decided} decided ones to tell (${s.caught} caught, ${s.survivors.length} also pass)`;
  const of = open > 0 ? `decided variants` : 'variants';
  if (s.weak) return `weak tests: ${s.survivors.length} of ${decided} ${of} of this change also pass${aside} — review it`;
  if (s.caught === s.variants) return `tests pin this change: all ${s.variants} variants of it are caught`;
  return `tests pin this change: ${s.caught} of ${decided} ${of} of it are caught${aside}`;
}

/** A verified candidate's size as the pool ranks it: lines changed, then characters changed. */
export interface RankedSize {
  readonly changeSize: number;
  readonly changedCharacters: number;
}

/**
 * Verified candidates best first: those whose strength can be trusted before those marked "review required"; then
 * smallest change first (as `ranking` is), strength only deciding between changes of the same size (the share of
 * variants caught; weak last, unknown between), so no strength result puts a larger change above a smaller one;
 * then in the order they came.
 */
export function rankByStrength(
  ranking: readonly number[],
  strengths: ReadonlyMap<number, TestStrength>,
  sizes: ReadonlyMap<number, RankedSize> = new Map(),
  reviewRequired: ReadonlySet<number> = new Set(),
): number[] {
  const key = (index: number) => {
    const s = strengths.get(index);
    if (!s || s.variants === 0 || !strengthKnown(s)) return 1;
    const decided = s.caught + s.survivors.length;
    return s.weak ? 2 + s.survivors.length / decided : s.survivors.length / decided;
  };
  const size = (index: number) => sizes.get(index) ?? { changeSize: 0, changedCharacters: 0 };
  const review = (index: number) => (reviewRequired.has(index) ? 1 : 0);
  return ranking
    .map((index, order) => ({ index, order }))
    .sort(
      (a, b) =>
        review(a.index) - review(b.index) ||
        size(a.index).changeSize - size(b.index).changeSize ||
        size(a.index).changedCharacters - size(b.index).changedCharacters ||
        key(a.index) - key(b.index) ||
        a.order - b.order,
    )
    .map((x) => x.index);
}

/** Why a verified candidate is "review required" without running anything (strengthSteering), or undefined. */
export function staticReviewReason(check: Pick<VariantInput, 'languageId' | 'originalText' | 'start' | 'end'>, candidate: CandidateResult): string | undefined {
  return steeringReason({ ...check, replacement: candidate.replacement });
}

/** The control run's finding: the fix fails once comments are added to it. */
export const CONTROL_FAILED = 'its tests fail once comments are added (in its change and at the end of the file): it depends on its own source text';
