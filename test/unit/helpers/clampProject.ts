// A project whose test fails by assertion only (the stack names only the test file): two source files, and a helper
// (toInt) the failing test runs too; the bug is in clamp (line 8 of src/range.js returns the lower bound).
/** The helper every test runs: the failing test runs it too, so its lines score below clamp's bug line. */
export const utilJs = [
  'function toInt(value) {',
  '  return Math.trunc(Number(value));',
  '}',
  'function pad(n) {',
  "  return String(toInt(n)).padStart(2, '0');",
  '}',
  'module.exports = { toInt, pad };',
  '',
].join('\n');

/** Line 8 returns the lower bound where the upper one is meant: only the failing test runs it. */
export const rangeJs = [
  "const { toInt } = require('./util');", //  1
  'function clamp(value, low, high) {', //    2
  '  const v = toInt(value);', //             3
  '  if (v < low) {', //                      4
  '    return low;', //                       5
  '  }', //                                   6
  '  if (v > high) {', //                     7
  '    return low;', //                       8
  '  }', //                                   9
  '  return v;', //                           10
  '}', //                                     11
  'module.exports = { clamp };',
  '',
].join('\n');

export const rangeTest = [
  "const test = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const { clamp } = require('../src/range');",
  "const { toInt, pad } = require('../src/util');",
  "test('clamp keeps a value inside', () => assert.equal(clamp(3, 0, 5), 3));",
  "test('clamp keeps the lower bound', () => assert.equal(clamp(-2, 0, 5), 0));",
  "test('clamp keeps the upper bound', () => assert.equal(clamp(9, 0, 5), 5));",
  "test('toInt truncates', () => assert.equal(toInt('4.7'), 4));",
  "test('pad pads', () => assert.equal(pad(7), '07'));",
  '',
].join('\n');

export const clampProject = { 'src/util.js': utilJs, 'src/range.js': rangeJs, 'test/range.test.js': rangeTest };
