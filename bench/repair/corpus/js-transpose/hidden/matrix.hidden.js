const test = require('node:test');
const assert = require('node:assert/strict');
const { transpose } = require('../src/matrix');

test('rectangular matrices', () => {
  assert.deepEqual(transpose([[1, 2, 3], [4, 5, 6]]), [[1, 4], [2, 5], [3, 6]]);
  assert.deepEqual(transpose([[1], [2], [3]]), [[1, 2, 3]]);
  assert.deepEqual(transpose([[7, 8, 9]]), [[7], [8], [9]]);
  assert.deepEqual(transpose([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), [[1, 4, 7], [2, 5, 8], [3, 6, 9]]);
});

test('a ragged matrix is refused', () => {
  assert.throws(() => transpose([[1, 2], [3]]), /ragged/);
});
