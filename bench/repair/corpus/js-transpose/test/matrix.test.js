const test = require('node:test');
const assert = require('node:assert/strict');
const { transpose } = require('../src/matrix');

test('an empty matrix', () => {
  assert.deepEqual(transpose([]), []);
});

test('a symmetric matrix is its own transpose', () => {
  assert.deepEqual(transpose([[1, 2], [2, 1]]), [[1, 2], [2, 1]]);
});

test('a square matrix', () => {
  assert.deepEqual(transpose([[1, 2], [3, 4]]), [[1, 3], [2, 4]]);
});
