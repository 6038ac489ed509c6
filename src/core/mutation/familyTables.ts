// Per-language tables of the statement, condition, call and literal families: node types and sibling names.
import { forGrammar } from './grammars';
import type { GrammarName } from './grammars';

/** Node types and spellings the statement, condition, call, literal and property families need. */
export interface FamilyTables {
  /** Nodes whose named children are statements of a function (Go's `block` wraps a `statement_list`). */
  readonly blocks: ReadonlySet<string>;
  /** Statements an edit may delete, move across a neighbour, or copy: calls, assignments, jumps. */
  readonly simpleStatements: ReadonlySet<string>;
  /** Statements leaving the block (`return`, `break`, `continue`, `throw`); nothing may be added after them. */
  readonly jumps: ReadonlySet<string>;
  readonly returnStatement: string;
  readonly loops: ReadonlySet<string>;
  readonly ifStatement: string;
  /** The node after `else` and the field holding its statement (undefined: the statement is its only named child). */
  readonly elseClause: string;
  readonly elseBody?: string;
  /** Python's `elif`: an `if` with one is not an if/else pair. */
  readonly elifClause?: string;
  /** A conditional expression: node type, and the named-child indices of its two branches (or field names). */
  readonly conditional?: { readonly type: string; readonly branches: readonly [string | number, string | number] };
  /** Statement spelling: `break;` in JavaScript, `break` in Python. */
  readonly terminator: string;
  /** The language's `&&` and `||`, and the node types a conjunct must be parenthesised for. */
  readonly and: string;
  readonly or: string;
  readonly looseConditions: ReadonlySet<string>;
  /**
   * Groups of method or function names of the same arity, likeliest first. A name's siblings are the other names
   * of every group it is in, in order.
   */
  readonly siblingCalls: ReadonlyArray<readonly string[]>;
  /** Member access (`p.start`): node type and the field of the property name. */
  readonly member?: { readonly type: string; readonly property: string };
  readonly numbers: ReadonlySet<string>;
  readonly strings: ReadonlySet<string>;
  /** Expressions that are strings or lists whatever their operands: `+` is not commutative on them. */
  readonly sequences: ReadonlySet<string>;
  /** Assignments and initialisers whose value field may take ±1: node type → field. */
  readonly assignedValues: ReadonlyArray<readonly [string, string]>;
  /** Calls whose two arguments are the bounds of a range (`range(a, b)`, `slice(a, b)`). */
  readonly rangeCalls: ReadonlySet<string>;
  /** The length of a sequence (`xs.length`, `len(xs)`), for a bounds check before an index; none in Java. */
  readonly lengthOf?: (sequence: string) => string;
  /** Calls rewritten with another shape (`xs.append(x)` → `xs.insert(0, x)`); see `CallRewrite`. */
  readonly rewrites: readonly CallRewrite[];
  /** The statement that puts `item` in the collection `name` was initialised with (`seen.add(k)`), by initialiser. */
  readonly collect: (initialiser: string, name: string, item: string) => string | undefined;
}

/** A method call rewritten with a different shape: `name` with `arity` positional arguments, the first `first`. */
export interface CallRewrite {
  readonly name: string;
  readonly arity: number;
  readonly first?: string;
  /** The new call, from the receiver's text and every argument's text. */
  readonly to: (receiver: string, args: readonly string[]) => string;
}

const jsSiblings: ReadonlyArray<readonly string[]> = [
  ['push', 'unshift'],
  ['pop', 'shift'],
  ['floor', 'ceil', 'round', 'trunc'],
  ['slice', 'substring', 'splice'],
  ['min', 'max'],
  ['startsWith', 'endsWith'],
  ['indexOf', 'lastIndexOf'],
  ['some', 'every'],
  ['find', 'findIndex', 'filter', 'findLast'],
  ['toUpperCase', 'toLowerCase'],
  ['trimStart', 'trimEnd', 'trim'],
  ['padStart', 'padEnd'],
  ['keys', 'values', 'entries'],
  ['reduce', 'reduceRight'],
];

const javascript: FamilyTables = {
  blocks: new Set(['statement_block']),
  simpleStatements: new Set(['expression_statement', 'return_statement', 'break_statement', 'continue_statement', 'throw_statement']),
  jumps: new Set(['return_statement', 'break_statement', 'continue_statement', 'throw_statement']),
  returnStatement: 'return_statement',
  loops: new Set(['for_statement', 'for_in_statement', 'while_statement', 'do_statement']),
  ifStatement: 'if_statement',
  elseClause: 'else_clause',
  conditional: { type: 'ternary_expression', branches: ['consequence', 'alternative'] },
  terminator: ';',
  and: '&&',
  or: '||',
  looseConditions: new Set(['ternary_expression', 'assignment_expression', 'sequence_expression', 'arrow_function', 'yield_expression']),
  siblingCalls: jsSiblings,
  member: { type: 'member_expression', property: 'property' },
  numbers: new Set(['number']),
  strings: new Set(['string']),
  sequences: new Set(['string', 'template_string', 'array']),
  assignedValues: [
    ['variable_declarator', 'value'],
    ['assignment_expression', 'right'],
    ['augmented_assignment_expression', 'right'],
  ],
  rangeCalls: new Set(['slice', 'substring', 'substr', 'splice', 'range']),
  lengthOf: (xs) => `${xs}.length`,
  rewrites: [],
  collect: (init, name, item) =>
    /^new Set\b/.test(init) ? `${name}.add(${item});` : /^\[\s*\]$/.test(init) ? `${name}.push(${item});` : /^new Map\b/.test(init) ? `${name}.set(${item}, true);` : undefined,
};

const python: FamilyTables = {
  blocks: new Set(['block']),
  simpleStatements: new Set(['expression_statement', 'return_statement', 'break_statement', 'continue_statement', 'raise_statement', 'delete_statement']),
  jumps: new Set(['return_statement', 'break_statement', 'continue_statement', 'raise_statement']),
  returnStatement: 'return_statement',
  loops: new Set(['for_statement', 'while_statement']),
  ifStatement: 'if_statement',
  elseClause: 'else_clause',
  elseBody: 'body',
  elifClause: 'elif_clause',
  conditional: { type: 'conditional_expression', branches: [0, 2] },
  terminator: '',
  and: 'and',
  or: 'or',
  looseConditions: new Set(['boolean_operator', 'conditional_expression', 'lambda', 'named_expression']),
  siblingCalls: [
    ['append', 'extend'],
    ['min', 'max'],
    ['floor', 'ceil', 'round', 'trunc'],
    ['startswith', 'endswith'],
    ['find', 'rfind'],
    ['index', 'rindex'],
    ['find', 'index'],
    ['lstrip', 'rstrip', 'strip'],
    ['any', 'all'],
    ['upper', 'lower'],
    ['keys', 'values', 'items'],
    ['sorted', 'reversed'],
    ['split', 'rsplit'],
    ['pop', 'popleft'],
    ['append', 'appendleft'],
    ['remove', 'discard'],
    ['isdigit', 'isalpha', 'isalnum'],
    ['union', 'intersection', 'difference'],
  ],
  member: { type: 'attribute', property: 'attribute' },
  numbers: new Set(['integer', 'float']),
  strings: new Set(['string']),
  sequences: new Set(['string', 'concatenated_string', 'list', 'list_comprehension', 'tuple']),
  assignedValues: [
    ['assignment', 'right'],
    ['augmented_assignment', 'right'],
  ],
  rangeCalls: new Set(['range']),
  lengthOf: (xs) => `len(${xs})`,
  rewrites: [
    { name: 'append', arity: 1, to: (xs, args) => `${xs}.insert(0, ${args[0]})` },
    { name: 'insert', arity: 2, first: '0', to: (xs, args) => `${xs}.append(${args[1]})` },
    { name: 'sort', arity: 0, to: (xs, args) => `sorted(${[xs, ...args].join(', ')})` },
    { name: 'pop', arity: 0, to: (xs) => `${xs}.pop(0)` },
    { name: 'pop', arity: 1, first: '0', to: (xs) => `${xs}.pop()` },
  ],
  collect: (init, name, item) =>
    /^set\(\s*\)$/.test(init) ? `${name}.add(${item})` : /^(\[\s*\]|list\(\s*\))$/.test(init) ? `${name}.append(${item})` : /^(\{\s*\}|dict\(\s*\))$/.test(init) ? `${name}[${item}] = True` : undefined,
};

const java: FamilyTables = {
  blocks: new Set(['block']),
  simpleStatements: new Set(['expression_statement', 'return_statement', 'break_statement', 'continue_statement', 'throw_statement']),
  jumps: new Set(['return_statement', 'break_statement', 'continue_statement', 'throw_statement']),
  returnStatement: 'return_statement',
  loops: new Set(['for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement']),
  ifStatement: 'if_statement',
  elseClause: '', // Java's `alternative` is the statement itself
  conditional: { type: 'ternary_expression', branches: ['consequence', 'alternative'] },
  terminator: ';',
  and: '&&',
  or: '||',
  looseConditions: new Set(['ternary_expression', 'assignment_expression', 'lambda_expression']),
  siblingCalls: [
    ['floor', 'ceil', 'round'],
    ['min', 'max'],
    ['startsWith', 'endsWith'],
    ['indexOf', 'lastIndexOf'],
    ['toUpperCase', 'toLowerCase'],
    ['addFirst', 'addLast'],
    ['removeFirst', 'removeLast'],
    ['substring', 'subSequence'],
  ],
  member: { type: 'field_access', property: 'field' },
  numbers: new Set(['decimal_integer_literal', 'decimal_floating_point_literal']),
  strings: new Set(['string_literal']),
  sequences: new Set(['string_literal']),
  assignedValues: [['variable_declarator', 'value'], ['assignment_expression', 'right']],
  rangeCalls: new Set(['substring', 'subList']),
  rewrites: [],
  collect: () => undefined,
};

const go: FamilyTables = {
  blocks: new Set(['statement_list']),
  simpleStatements: new Set([
    'expression_statement', 'return_statement', 'break_statement', 'continue_statement', 'assignment_statement',
    'inc_statement', 'dec_statement',
  ]),
  jumps: new Set(['return_statement', 'break_statement', 'continue_statement']),
  returnStatement: 'return_statement',
  loops: new Set(['for_statement']),
  ifStatement: 'if_statement',
  elseClause: '', // Go's `alternative` is the block itself
  terminator: '',
  and: '&&',
  or: '||',
  looseConditions: new Set(),
  siblingCalls: [
    ['Floor', 'Ceil', 'Round', 'Trunc'],
    ['min', 'max'],
    ['Min', 'Max'],
    ['HasPrefix', 'HasSuffix'],
    ['TrimPrefix', 'TrimSuffix'],
    ['TrimLeft', 'TrimRight'],
    ['Index', 'LastIndex'],
    ['ToUpper', 'ToLower'],
  ],
  member: { type: 'selector_expression', property: 'field' },
  numbers: new Set(['int_literal', 'float_literal']),
  strings: new Set(['interpreted_string_literal']),
  sequences: new Set(['interpreted_string_literal', 'raw_string_literal']),
  assignedValues: [],
  rangeCalls: new Set(),
  lengthOf: (xs) => `len(${xs})`,
  rewrites: [],
  collect: () => undefined,
};

/** The family tables of a grammar; TypeScript and TSX share JavaScript's. */
export function familyTablesFor(grammar: GrammarName): FamilyTables {
  return forGrammar(grammar, { javascript, python, java, go });
}
