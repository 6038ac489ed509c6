// Per-grammar facts the mutation families need: which node types are operators, calls, literals and scopes.
import type { GrammarName } from './grammars';

/** Operator → replacements, likeliest first (the position becomes the edit's rank). */
export type OperatorTable = Readonly<Record<string, readonly string[]>>;

/** Node types and operator tables of one grammar family. */
export interface SyntaxProfile {
  /** Binary nodes whose `operator` field holds the operator token (arithmetic, bitwise, logical, and in JS relational). */
  readonly binary: ReadonlySet<string>;
  /** Python's `comparison_operator`, whose operators are children in the `operators` field; none in JS. */
  readonly comparison?: string;
  readonly augmented: string;
  readonly update?: string;
  /** Relational, arithmetic (with bitwise) and logical replacements. */
  readonly relational: OperatorTable;
  readonly arithmetic: OperatorTable;
  readonly logical: OperatorTable;
  /** Operators whose operands may not be swapped without changing the result (comparisons excluded). */
  readonly nonCommutative: ReadonlySet<string>;
  /** `!x` / `not x`: node type, its operator text, and how to negate an expression of a given node type. */
  readonly notNode: string;
  readonly notOperator?: string;
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

const orderingOps = (eq: string, ne: string): OperatorTable => ({
  '<': ['<=', '>', '>=', ne, eq],
  '<=': ['<', '>=', '>', eq, ne],
  '>': ['>=', '<', '<=', ne, eq],
  '>=': ['>', '<=', '<', eq, ne],
});

const jsArithmetic: OperatorTable = {
  '+': ['-', '*'],
  '-': ['+'],
  '*': ['/', '+', '**'],
  '/': ['*', '%'],
  '%': ['/', '*'],
  '**': ['*'],
  '&': ['|', '^'],
  '|': ['&', '^'],
  '^': ['|', '&'],
  '<<': ['>>'],
  '>>': ['<<', '>>>'],
  '>>>': ['>>'],
};

const pyArithmetic: OperatorTable = {
  '+': ['-', '*'],
  '-': ['+'],
  '*': ['/', '+', '**'],
  '/': ['//', '*', '%'],
  '//': ['/', '%', '*'],
  '%': ['//', '/'],
  '**': ['*'],
  '&': ['|', '^'],
  '|': ['&', '^'],
  '^': ['|', '&'],
  '<<': ['>>'],
  '>>': ['<<'],
};

// Expressions that bind tighter than a prefix `!`, so negating them needs no parentheses.
const jsPrimary = new Set([
  'identifier', 'member_expression', 'subscript_expression', 'call_expression', 'parenthesized_expression',
  'true', 'false', 'this', 'non_null_expression',
]);
const pyLoose = new Set(['boolean_operator', 'conditional_expression', 'lambda', 'named_expression']);

const javascript: SyntaxProfile = {
  binary: new Set(['binary_expression']),
  augmented: 'augmented_assignment_expression',
  update: 'update_expression',
  relational: {
    ...orderingOps('==', '!='),
    '==': ['!=', '===', '<=', '>='],
    '!=': ['==', '!==', '<', '>'],
    '===': ['!==', '==', '<=', '>='],
    '!==': ['===', '!=', '<', '>'],
  },
  arithmetic: jsArithmetic,
  logical: { '&&': ['||'], '||': ['&&', '??'], '??': ['||'] },
  nonCommutative: new Set(['-', '/', '%', '**', '<<', '>>', '>>>']),
  notNode: 'unary_expression',
  notOperator: '!',
  negate: (text, type) => (jsPrimary.has(type) ? `!${text}` : `!(${text})`),
  conditions: [
    ['if_statement', 'condition'],
    ['while_statement', 'condition'],
    ['do_statement', 'condition'],
    ['ternary_expression', 'condition'],
  ],
  booleans: { true: 'false', false: 'true' },
  integer: 'number',
  call: 'call_expression',
  unswappableArguments: new Set(['spread_element']),
  subscript: ['subscript_expression', 'index'],
  offsettable: new Set([
    'identifier', 'member_expression', 'subscript_expression', 'call_expression', 'binary_expression',
    'parenthesized_expression',
  ]),
  swappedCallees: { min: 'max', max: 'min', some: 'every', every: 'some' },
  opaque: new Set(['comment', 'string', 'regex', 'string_fragment', 'html_comment']),
  functions: new Set([
    'function_declaration', 'function_expression', 'function', 'arrow_function', 'method_definition',
    'generator_function_declaration', 'generator_function',
  ]),
  identifier: 'identifier',
};

const python: SyntaxProfile = {
  binary: new Set(['binary_operator', 'boolean_operator']),
  comparison: 'comparison_operator',
  augmented: 'augmented_assignment',
  relational: {
    ...orderingOps('==', '!='),
    '==': ['!=', '<=', '>='],
    '!=': ['==', '<', '>'],
    in: ['not in'],
    'not in': ['in'],
    is: ['is not', '=='],
    'is not': ['is', '!='],
  },
  arithmetic: pyArithmetic,
  logical: { and: ['or'], or: ['and'] },
  nonCommutative: new Set(['-', '/', '//', '%', '**', '<<', '>>']),
  notNode: 'not_operator',
  negate: (text, type) => (pyLoose.has(type) ? `not (${text})` : `not ${text}`),
  conditions: [
    ['if_statement', 'condition'],
    ['elif_clause', 'condition'],
    ['while_statement', 'condition'],
    ['conditional_expression', 1],
  ],
  booleans: { True: 'False', False: 'True' },
  integer: 'integer',
  call: 'call',
  unswappableArguments: new Set(['keyword_argument', 'list_splat', 'dictionary_splat', 'parenthesized_list_splat']),
  subscript: ['subscript', 'subscript'],
  slice: 'slice',
  offsettable: new Set(['identifier', 'attribute', 'subscript', 'call', 'binary_operator', 'parenthesized_expression']),
  swappedCallees: { any: 'all', all: 'any', min: 'max', max: 'min' },
  opaque: new Set(['comment', 'string']),
  functions: new Set(['function_definition', 'lambda']),
  identifier: 'identifier',
};

/** The profile for a grammar; TypeScript and TSX are JavaScript with types, which the families never touch. */
export function profileFor(grammar: GrammarName): SyntaxProfile {
  return grammar === 'python' ? python : javascript;
}
