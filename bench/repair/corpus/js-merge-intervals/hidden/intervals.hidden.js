const test = require('node:test');
const assert = require('node:assert/strict');
const { mergeIntervals } = require('../src/intervals');

test('merging', () => {
  const iv = (start, end) => ({ start, end });
  assert.deepEqual(mergeIntervals([iv(1, 10), iv(2, 3)]), [iv(1, 10)]);
  assert.deepEqual(mergeIntervals([iv(1, 2), iv(2, 4), iv(4, 5)]), [iv(1, 5)]);
  assert.deepEqual(mergeIntervals([iv(8, 9), iv(1, 4), iv(3, 7), iv(10, 12)]), [iv(1, 7), iv(8, 9), iv(10, 12)]);
  assert.deepEqual(mergeIntervals([iv(5, 1), iv(2, 3)]), [iv(2, 3)]);
  assert.deepEqual(mergeIntervals([]), []);
});

test('the input is not changed', () => {
  const input = [{ start: 1, end: 3 }, { start: 2, end: 6 }];
  mergeIntervals(input);
  assert.deepEqual(input, [{ start: 1, end: 3 }, { start: 2, end: 6 }]);
});
