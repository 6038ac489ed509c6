const test = require('node:test');
const assert = require('node:assert/strict');
const { insertionIndex } = require('../src/search');

test('positions', () => {
  assert.equal(insertionIndex([1, 2, 3], 0), 0);
  assert.equal(insertionIndex([1, 1, 1], 1), 3);
  assert.equal(insertionIndex([1, 3, 5, 7], 4), 2);
  assert.equal(insertionIndex([1, 3, 5, 7], 5), 3);
  assert.equal(insertionIndex([5], 5), 1);
  assert.equal(insertionIndex([2, 4, 4, 4, 6, 8], 4), 4);
});
