const test = require('node:test');
const assert = require('node:assert/strict');
const { insertionIndex } = require('../src/search');

test('an empty array', () => {
  assert.equal(insertionIndex([], 5), 0);
});

test('larger than everything', () => {
  assert.equal(insertionIndex([1, 2, 3], 9), 3);
});

test('after equal values', () => {
  assert.equal(insertionIndex([1, 2, 2, 3], 2), 3);
});
