// The shape of a grammar family's syntax facts, apart from the profiles themselves so they can import it without a cycle.

/** Operator → replacements, likeliest first (the position becomes the edit's rank). */
export type OperatorTable = Readonly<Record<string, readonly string[]>>;

/** Node types and operator tables of one grammar family. */
export interface SyntaxProfile {
  /** Binary nodes whose `operator` field holds the operator token (arithmetic, bitwise, logical, relational). */
  readonly binary: ReadonlySet<string>;
  /** Python's `comparison_operator`, whose operators are children in the `operators` field. */
  readonly comparison?: string;
  /** Assignments whose `operator` field may be compound (`+=`); a plain `=` there is left alone. */
  readonly augmented: ReadonlySet<string>;
  /** Nodes holding a `++` or `--` token (`i++`, Go's `i++` statement). */
  readonly update: ReadonlySet<string>;
  /** Relational, arithmetic (with bitwise) and logical replacements. */
  readonly relational: OperatorTable;
  readonly arithmetic: OperatorTable;
  readonly logical: OperatorTable;
  /** Operators whose operands may not be swapped without changing the result (comparisons excluded). */
  readonly nonCommutative: ReadonlySet<string>;
  /** `!x` / `not x`: node type, its operator (when the node is a general unary one) and operand field. */
  readonly notNode: string;
  readonly notOperator?: string;
  readonly notOperand: string;
  /** `x` negated, parenthesised when its node type binds more loosely than the negation. */
  negate(text: string, nodeType: string): string;
  /** Where a condition sits: node type → field name (or a named-child index when the grammar has no field). */
  readonly conditions: ReadonlyArray<readonly [string, string | number]>;
  readonly booleans: Readonly<Record<string, string>>;
  readonly integer: string;
  readonly call: string;
  /** Arguments that cannot be swapped (spreads, keywords). */
  readonly unswappableArguments: ReadonlySet<string>;
  /** Subscript node type and its index field. */
  readonly subscript: readonly [string, string];
  readonly slice?: string;
  /** Node types that may take `+ 1` / `- 1` as a whole (an index, a bound, an argument). */
  readonly offsettable: ReadonlySet<string>;
  /** Call names swapped with each other (`any`/`all`, `Math.min`/`Math.max`): name → replacement. */
  readonly swappedCallees: Readonly<Record<string, string>>;
  /** Nodes never entered: comments and string literals are never mutated. */
  readonly opaque: ReadonlySet<string>;
  readonly functions: ReadonlySet<string>;
  readonly identifier: string;
}
