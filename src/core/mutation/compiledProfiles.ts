// Syntax profiles of Java and Go: the same families as JavaScript, with their own node names.
import { cArithmetic, cConditions, cLogical, lowerCaseBooleans, orderingOps } from './operatorTables';
import type { SyntaxProfile } from './profileTypes';

const equality = { '==': ['!=', '<=', '>='], '!=': ['==', '<', '>'] };

const javaPrimary = new Set([
  'identifier', 'method_invocation', 'field_access', 'array_access', 'parenthesized_expression', 'true', 'false', 'this',
]);

export const java: SyntaxProfile = {
  binary: new Set(['binary_expression']),
  augmented: new Set(['assignment_expression']),
  update: new Set(['update_expression']),
  relational: { ...orderingOps('==', '!='), ...equality },
  arithmetic: { ...cArithmetic, '>>': ['<<', '>>>'], '>>>': ['>>'] },
  logical: cLogical,
  nonCommutative: new Set(['-', '/', '%', '<<', '>>', '>>>']),
  notNode: 'unary_expression',
  notOperator: '!',
  notOperand: 'operand',
  negate: (text, type) => (javaPrimary.has(type) ? `!${text}` : `!(${text})`),
  conditions: cConditions,
  booleans: lowerCaseBooleans,
  integer: 'decimal_integer_literal',
  call: 'method_invocation',
  unswappableArguments: new Set(),
  subscript: ['array_access', 'index'],
  offsettable: new Set(['identifier', 'field_access', 'array_access', 'method_invocation', 'binary_expression', 'parenthesized_expression']),
  swappedCallees: { min: 'max', max: 'min' },
  opaque: new Set(['line_comment', 'block_comment', 'string_literal', 'character_literal', 'text_block']),
  functions: new Set(['method_declaration', 'constructor_declaration', 'lambda_expression']),
  identifier: 'identifier',
};

const goPrimary = new Set([
  'identifier', 'call_expression', 'selector_expression', 'index_expression', 'parenthesized_expression', 'true', 'false',
]);

export const go: SyntaxProfile = {
  binary: new Set(['binary_expression']),
  augmented: new Set(['assignment_statement']),
  update: new Set(['inc_statement', 'dec_statement']),
  relational: { ...orderingOps('==', '!='), ...equality },
  arithmetic: { ...cArithmetic, '&': ['|', '^', '&^'], '&^': ['&'] },
  logical: cLogical,
  nonCommutative: new Set(['-', '/', '%', '<<', '>>', '&^']),
  notNode: 'unary_expression',
  notOperator: '!',
  notOperand: 'operand',
  negate: (text, type) => (goPrimary.has(type) ? `!${text}` : `!(${text})`),
  conditions: [['if_statement', 'condition']],
  booleans: lowerCaseBooleans,
  integer: 'int_literal',
  call: 'call_expression',
  unswappableArguments: new Set(['variadic_argument']),
  subscript: ['index_expression', 'index'],
  offsettable: new Set(['identifier', 'selector_expression', 'index_expression', 'call_expression', 'binary_expression', 'parenthesized_expression']),
  swappedCallees: { min: 'max', max: 'min' },
  opaque: new Set(['comment', 'interpreted_string_literal', 'raw_string_literal', 'rune_literal']),
  functions: new Set(['function_declaration', 'method_declaration', 'func_literal']),
  identifier: 'identifier',
};
