const test = require('node:test');
const assert = require('node:assert/strict');
const { wrap } = require('../src/wrap');

test('wrapping', () => {
  assert.deepEqual(wrap('the quick brown fox jumps', 10), ['the quick', 'brown fox', 'jumps']);
  assert.deepEqual(wrap('a b c d', 3), ['a b', 'c d']);
  assert.deepEqual(wrap('a b c d', 1), ['a', 'b', 'c', 'd']);
  assert.deepEqual(wrap('  one\ttwo\nthree ', 100), ['one two three']);
  assert.deepEqual(wrap('abc def', 6), ['abc', 'def']);
  assert.deepEqual(wrap('abc def', 7), ['abc def']);
});
