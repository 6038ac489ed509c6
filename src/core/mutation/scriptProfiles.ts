// Syntax profiles of JavaScript/TypeScript and Python.
import { cArithmetic, cConditions, cLogical, lowerCaseBooleans, orderingOps } from './operatorTables';
import type { SyntaxProfile } from './profileTypes';

// Expressions that bind tighter than a prefix `!`, so negating them needs no parentheses.
const jsPrimary = new Set([
  'identifier', 'member_expression', 'subscript_expression', 'call_expression', 'parenthesized_expression',
  'true', 'false', 'this', 'non_null_expression',
]);
const pyLoose = new Set(['boolean_operator', 'conditional_expression', 'lambda', 'named_expression']);

export const javascript: SyntaxProfile = {
  binary: new Set(['binary_expression']),
  augmented: new Set(['augmented_assignment_expression']),
  update: new Set(['update_expression']),
  relational: {
    ...orderingOps('==', '!='),
    '==': ['!=', '===', '<=', '>='],
    '!=': ['==', '!==', '<', '>'],
    '===': ['!==', '==', '<=', '>='],
    '!==': ['===', '!=', '<', '>'],
  },
  arithmetic: { ...cArithmetic, '*': ['/', '+', '**'], '**': ['*'], '>>': ['<<', '>>>'], '>>>': ['>>'] },
  logical: { ...cLogical, '||': ['&&', '??'], '??': ['||'] },
  nonCommutative: new Set(['-', '/', '%', '**', '<<', '>>', '>>>']),
  notNode: 'unary_expression',
  notOperator: '!',
  notOperand: 'argument',
  negate: (text, type) => (jsPrimary.has(type) ? `!${text}` : `!(${text})`),
  conditions: cConditions,
  booleans: lowerCaseBooleans,
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

export const python: SyntaxProfile = {
  binary: new Set(['binary_operator', 'boolean_operator']),
  comparison: 'comparison_operator',
  augmented: new Set(['augmented_assignment']),
  update: new Set(),
  relational: {
    ...orderingOps('==', '!='),
    '==': ['!=', '<=', '>='],
    '!=': ['==', '<', '>'],
    in: ['not in'],
    'not in': ['in'],
    is: ['is not', '=='],
    'is not': ['is', '!='],
  },
  arithmetic: {
    ...cArithmetic,
    '*': ['/', '+', '**'],
    '/': ['//', '*', '%'],
    '//': ['/', '%', '*'],
    '%': ['//', '/'],
    '**': ['*'],
  },
  logical: { and: ['or'], or: ['and'] },
  nonCommutative: new Set(['-', '/', '//', '%', '**', '<<', '>>']),
  notNode: 'not_operator',
  notOperand: 'argument',
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
