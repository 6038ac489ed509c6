// One change to a file (a token, a node, a statement, or two related sites): the unit every mutation family produces.

/** Mutation families; `prior.ts` says which are tried first. */
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
  /** A variable replaced by one the selection uses otherwise (an object by a plain value): less likely (`prior.ts`). */
  readonly kindMismatch?: boolean;
}

/** The classic one-token families and sibling calls: a token or a callee changed (the sites pairs are made of). */
const ONE_TOKEN: ReadonlySet<MutationFamily> = new Set([
  'relational', 'arithmetic', 'logical', 'negation', 'boolean-literal', 'callee', 'integer-literal', 'off-by-one', 'sibling-call',
]);

/** Whether `family` changes one token or a callee (the order itself is `prior.ts`'s). */
export function isOneToken(family: MutationFamily): boolean {
  return ONE_TOKEN.has(family);
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
