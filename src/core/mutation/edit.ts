// One change to a file (a token, a node, a statement, or two related sites): the unit every mutation family produces.

/** Mutation families; `FAMILY_COST` says which are tried first. */
export type MutationFamily =
  // The classic one-token edits.
  | 'relational'
  | 'arithmetic'
  | 'logical'
  | 'negation'
  | 'boolean-literal'
  | 'callee'
  | 'integer-literal'
  | 'off-by-one'
  | 'swap'
  | 'identifier'
  // A method or function replaced by a sibling of the same arity (`push` → `unshift`, `floor` → `ceil`).
  | 'sibling-call'
  // Arithmetic pairs rarer than the classic table's (`-` → `%`).
  | 'rare-operator'
  // A conjunct or disjunct dropped or added (`a && b` → `a`, `a` → `a && c`).
  | 'condition'
  // ±1 on an integer-valued expression that is not a bound, an index or an argument (a returned or assigned value).
  | 'offset'
  // A number or string literal replaced by another of the same type used in the function.
  | 'literal'
  // A property or attribute name replaced by another used in the function (`p.start` → `p.end`).
  | 'property'
  // An argument dropped, or one used elsewhere in the function added.
  | 'argument'
  // A statement deleted, moved, duplicated or added (`break`, `continue`, `return`).
  | 'statement'
  // The update a loop lacks: a set it tests but never fills (`seen.add(key)`), a variable it reads but never sets.
  | 'update'
  // The branches of an `if`/`else` or a conditional expression swapped.
  | 'branches'
  // Two edits on related sites (both bounds of a loop, both sides of a chain).
  | 'pair';

/** A replacement of [start, end) of the file by `text`. Offsets are UTF-16 code units, like the parser's. */
export interface MutationEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly family: MutationFamily;
  /** 0 for the likeliest alternative at its site, 1 for the next, …; spreads the first samples over many sites. */
  readonly rank: number;
  /** What changed, without the line (`` `<` → `<=` ``). */
  readonly description: string;
}

/**
 * Where each family starts in the order: an edit costs its family's base plus its rank's cost (`RANK_COST`).
 * The classic one-token edits (0) come first, so an exact one-line selection tries today's likeliest edits first;
 * sibling calls (a one-token change too) fit after their first alternatives, and so does the update a loop visibly
 * lacks (a set that is tested and never filled is rarely anything but a bug); swaps and dropped conjuncts next;
 * replacing a variable is the most numerous family and rarely right, so it waits; edits of whole statements and
 * pairs of edits come last.
 */
const FAMILY_COST: Readonly<Record<MutationFamily, number>> = {
  relational: 0,
  arithmetic: 0,
  logical: 0,
  negation: 0,
  'boolean-literal': 0,
  callee: 0,
  'integer-literal': 0,
  'off-by-one': 0,
  'sibling-call': 0.5,
  update: 4,
  swap: 10,
  condition: 11,
  'rare-operator': 12,
  offset: 13,
  literal: 14,
  property: 16,
  identifier: 20,
  argument: 24,
  statement: 26,
  branches: 36,
  pair: 40,
};

/**
 * What an edit's rank adds: two units, so a site's third classic alternative still comes before any swap (the
 * classic order is kept) while a far alternative of one site waits behind the newer families' likeliest edits.
 */
const RANK_COST = 2;

/** The classic one-token families and sibling calls: a token or a callee changed, tried before any other family. */
export function isOneToken(family: MutationFamily): boolean {
  return FAMILY_COST[family] < 1;
}

/** An edit's cost before its line's: lower is tried earlier (see `FAMILY_COST` and `RANK_COST`). */
export function editCost(edit: MutationEdit): number {
  return FAMILY_COST[edit.family] + RANK_COST * edit.rank;
}

/** Quotes code for a label, shortened so a long expression keeps the label readable. */
export function quote(code: string): string {
  const flat = code.replace(/\s+/g, ' ').trim();
  return '`' + (flat.length > 40 ? flat.slice(0, 39) + '…' : flat) + '`';
}

/** An edit described as `old` → `new`. */
export function replacement(
  start: number,
  end: number,
  oldText: string,
  text: string,
  family: MutationFamily,
  rank: number,
): MutationEdit {
  return { start, end, text, family, rank, description: `${quote(oldText)} → ${quote(text)}` };
}

/** Both edits at once (they must not overlap), as one replacement of the span from the first to the second. */
export function combined(fileText: string, a: MutationEdit, b: MutationEdit, rank: number): MutationEdit | undefined {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  if (first.end > second.start) return undefined;
  return {
    start: first.start,
    end: second.end,
    text: first.text + fileText.slice(first.end, second.start) + second.text,
    family: 'pair',
    rank,
    description: `${first.description} and ${second.description}`,
  };
}
