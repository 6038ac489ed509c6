// Operator replacement tables shared by the language profiles, likeliest replacement first.
import type { OperatorTable } from './profiles';

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
