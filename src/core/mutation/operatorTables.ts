// Operator replacement tables shared by the language profiles, likeliest replacement first.
import type { OperatorTable, SyntaxProfile } from './profileTypes';

/** `<` `<=` `>` `>=` with the language's equality operators; the nearest boundary change comes first. */
export const orderingOps = (eq: string, ne: string): OperatorTable => ({
  '<': ['<=', '>', '>=', ne, eq],
  '<=': ['<', '>=', '>', eq, ne],
  '>': ['>=', '<', '<=', ne, eq],
  '>=': ['>', '<=', '<', eq, ne],
});

/** Arithmetic and bitwise operators of the C family (JavaScript, Java, Go). */
export const cArithmetic: OperatorTable = {
  '+': ['-', '*'],
  '-': ['+'],
  '*': ['/', '+'],
  '/': ['*', '%'],
  '%': ['/', '*'],
  '&': ['|', '^'],
  '|': ['&', '^'],
  '^': ['|', '&'],
  '<<': ['>>'],
  '>>': ['<<'],
};

export const cLogical: OperatorTable = { '&&': ['||'], '||': ['&&'] };

/** Where JavaScript/TypeScript and Java keep the condition a negation may flip. */
export const cConditions: SyntaxProfile['conditions'] = [
  ['if_statement', 'condition'],
  ['while_statement', 'condition'],
  ['do_statement', 'condition'],
  ['ternary_expression', 'condition'],
];

/** `true` ↔ `false` (JavaScript, Java, Go; Python spells them with capitals). */
export const lowerCaseBooleans: SyntaxProfile['booleans'] = { true: 'false', false: 'true' };
