const test = require('node:test');
const assert = require('node:assert/strict');
const { movingAverage } = require('../src/movingAverage');

test('no values, no averages', () => {
  assert.deepEqual(movingAverage([], 3), []);
});

test('a window of one is the values themselves', () => {
  assert.deepEqual(movingAverage([2, 4, 6], 1), [2, 4, 6]);
});

test('a window of two', () => {
  assert.deepEqual(movingAverage([2, 4, 6, 8], 2), [2, 3, 5, 7]);
});
