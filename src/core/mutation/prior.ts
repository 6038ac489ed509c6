// The mutation order's prior: how likely an edit is the fix, in bits (−log2 p), from its line's place in the fault
// localisation, its bug class's share of real one-token bugs, the number of such sites on its line, and its alternative.
import type { MutationEdit, MutationFamily } from './edit';

/**
 * The share of real one-token (single-statement) bugs each family fixes, as studies of mined bug-fix commits rank
 * them (ManySStuBs4J, Karampatsis & Sutton, MSR 2020; PySStuBs, Kamienski et al., MSR 2021; the one-token bugs of
 * Defects4J and QuixBugs): "change identifier used" is the most common class, then wrong function name, changed
 * literals, changed binary operators (boundaries first), more/less specific conditions and changed unary operators
 * (negation); swapped arguments and booleans are rare. Rounded to a few levels on purpose: the studies disagree on
 * the exact figures, and the order, not the decimals, decides what is tried first. Not normalised (only ratios matter).
 */
export const CLASS_SHARE: Readonly<Record<MutationFamily, number>> = {
  identifier: 0.15,
  property: 0.1,
  callee: 0.08,
  'sibling-call': 0.06,
  relational: 0.12,
  'off-by-one': 0.1,
  'integer-literal': 0.06,
  literal: 0.04,
  arithmetic: 0.06,
  logical: 0.06,
  negation: 0.06,
  condition: 0.06,
  'boolean-literal': 0.03,
  swap: 0.03,
  offset: 0.03,
  argument: 0.03,
  update: 0.03,
  statement: 0.02,
  'rare-operator': 0.01,
  branches: 0.01,
  pair: 0.01,
};

/**
 * Families whose alternatives at a site are listed likeliest first (the operator tables: `<` → `<=` before `<` → `>`;
 * a property of the same object before the nearest others): each next alternative is taken as half as likely. The
 * others list what the code offers in no order of likelihood
 * (`n + 1` and `n - 1`; a variable, literal or argument of the function in declaration order), so each of
 * a site's alternatives is as likely.
 */
const ORDERED: ReadonlySet<MutationFamily> = new Set([
  'relational', 'arithmetic', 'logical', 'negation', 'boolean-literal', 'callee', 'sibling-call', 'property', 'rare-operator', 'swap', 'condition', 'offset', 'statement', 'update', 'branches', 'pair',
]);

/**
 * Bits added to a variable replaced by one the selection uses otherwise (`xs.length` → `sum.length`, `return out` →
 * `return n` for an array `out`): the studies' "change identifier used" fixes replace a variable by one of the same
 * type, and a different use is the type evidence a parser has.
 */
const KIND_MISMATCH_BITS = 4;

/** Bits of a step down the localisation's ranking: each tier of lines is taken as half as likely as the one above. */
const TIER_BITS = 1;
/**
 * Lines no failing test ran, when some ran: a one-token change there cannot change what the failing tests do, so
 * every edit of a line with evidence comes first.
 */
const UNHINTED_BITS = 1000;

/**
 * Bits of each line from the ranked hints. Fault localisation lists tied lines top to bottom (the lines of one block
 * share a coverage score), so each ascending run of the ranking is one tier; the tier's probability is shared by its
 * lines. No hints: every line alike.
 */
export function lineBitsOf(hintLines: readonly number[] | undefined): (line: number) => number {
  const tiers: number[][] = [];
  let previous = -1;
  const seen = new Set<number>();
  for (const line of hintLines ?? []) {
    if (seen.has(line)) continue;
    seen.add(line);
    if (line < previous || tiers.length === 0) tiers.push([]);
    tiers[tiers.length - 1].push(line);
    previous = line;
  }
  const bits = new Map<number, number>();
  tiers.forEach((tier, t) => tier.forEach((line) => bits.set(line, t * TIER_BITS + Math.log2(tier.length))));
  return (line) => (bits.size === 0 ? 0 : (bits.get(line) ?? UNHINTED_BITS));
}

/** `family@line` → how many distinct sites of that family the line has, and `start:end:family` → alternatives there. */
export interface SiteCounts {
  readonly sitesOnLine: ReadonlyMap<string, number>;
  readonly alternatives: ReadonlyMap<string, number>;
}

const siteKey = (edit: MutationEdit) => `${edit.start}:${edit.end}:${edit.family}`;

/** Counts the sites and alternatives of `edits` (with each edit's line). */
export function countSites(edits: ReadonlyArray<{ edit: MutationEdit; line: number }>): SiteCounts {
  const sites = new Map<string, Set<string>>();
  const alternatives = new Map<string, number>();
  for (const { edit, line } of edits) {
    const key = siteKey(edit);
    alternatives.set(key, (alternatives.get(key) ?? 0) + 1);
    const onLine = `${edit.family}@${line}`;
    let set = sites.get(onLine);
    if (!set) sites.set(onLine, (set = new Set()));
    set.add(key);
  }
  return { sitesOnLine: new Map([...sites].map(([k, s]) => [k, s.size])), alternatives };
}

/**
 * An edit's bits before its line's: −log2 of its class's share, spread evenly over that class's sites on the line
 * (a line with five variables makes each a less likely slip than a line with one), and over the site's alternatives
 * (halving along an ordered table, evenly otherwise). Pairs are not spread: there are few, and they come last anyway.
 */
export function editBits(edit: MutationEdit, line: number, counts: SiteCounts): number {
  const classBits = -Math.log2(CLASS_SHARE[edit.family]);
  if (edit.family === 'pair') return classBits + edit.rank + 1;
  const siteBits = Math.log2(counts.sitesOnLine.get(`${edit.family}@${line}`) ?? 1);
  const alternativeBits = ORDERED.has(edit.family) ? edit.rank + 1 : Math.log2(Math.max(2, counts.alternatives.get(siteKey(edit)) ?? 1));
  return classBits + siteBits + alternativeBits + (edit.kindMismatch ? KIND_MISMATCH_BITS : 0);
}
