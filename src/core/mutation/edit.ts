// One single-token (or single-node) change to a file: the unit every mutation family produces.

/** Mutation families, in the order of the tiers they belong to (see `tierOf`). */
export type MutationFamily =
  | 'relational'
  | 'arithmetic'
  | 'logical'
  | 'negation'
  | 'boolean-literal'
  | 'callee'
  | 'integer-literal'
  | 'off-by-one'
  | 'swap'
  | 'identifier';

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
 * Operator and off-by-one edits (tier 0) are the classic one-token bugs and come first; swaps (tier 1) next;
 * replacing one variable by another (tier 2) is the most numerous and least often right, so it comes last.
 */
export function tierOf(family: MutationFamily): number {
  if (family === 'identifier') return 2;
  if (family === 'swap') return 1;
  return 0;
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
