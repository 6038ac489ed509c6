const test = require('node:test');
const assert = require('node:assert/strict');
const { movingAverage } = require('../src/movingAverage');

test('longer windows', () => {
  assert.deepEqual(movingAverage([3, 6, 9, 12, 15], 3), [3, 4.5, 6, 9, 12]);
  assert.deepEqual(movingAverage([1, 2, 3], 10), [1, 1.5, 2]);
  assert.deepEqual(movingAverage([5], 4), [5]);
  assert.deepEqual(movingAverage([10, 0, 10, 0], 2), [10, 5, 5, 5]);
});

test('a bad window is refused', () => {
  assert.throws(() => movingAverage([1], 0), RangeError);
  assert.throws(() => movingAverage([1], 1.5), RangeError);
});
