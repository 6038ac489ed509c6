const test = require('node:test');
const assert = require('node:assert/strict');
const { wrap } = require('../src/wrap');

test('no words, no lines', () => {
  assert.deepEqual(wrap('   ', 10), []);
});

test('a long word stands alone', () => {
  assert.deepEqual(wrap('a extraordinarily b', 5), ['a', 'extraordinarily', 'b']);
});

test('words that fit exactly share a line', () => {
  assert.deepEqual(wrap('ab cd ef', 5), ['ab cd', 'ef']);
});
