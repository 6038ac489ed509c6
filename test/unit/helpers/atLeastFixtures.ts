// The `atLeast` project the strength-check suites share (the check, its cost, the forgery): `>` where "at least"
// needs `>=`, and node --test tests that pin the fix.
export const AT_LEAST_BUG = '  return quantity > threshold;';
export const AT_LEAST_SOURCE = `function atLeast(quantity, threshold) {\n${AT_LEAST_BUG}\n}\nmodule.exports = { atLeast };\n`;
export const AT_LEAST_FIX = '  return quantity >= threshold;';
/** Strong tests: the boundary, both sides of it, and a zero threshold. */
export const AT_LEAST_TESTS = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { atLeast } = require('../src/limit.js');",
  "test('the threshold itself counts', () => assert.strictEqual(atLeast(5, 5), true));",
  "test('above the threshold', () => assert.strictEqual(atLeast(6, 5), true));",
  "test('below the threshold', () => assert.strictEqual(atLeast(4, 5), false));",
  "test('zero threshold', () => assert.strictEqual(atLeast(0, 0), true));",
].join('\n');
/** The project's files, with `tests` as test/limit.test.js (and any extra files). */
export const atLeastProject = (tests: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'src/limit.js': AT_LEAST_SOURCE, 'test/limit.test.js': `${tests}\n`, 'package.json': JSON.stringify({ name: 'limit', scripts: { test: 'node --test' } }), ...extra,
});
