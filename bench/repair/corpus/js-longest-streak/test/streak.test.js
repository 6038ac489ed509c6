const test = require('node:test');
const assert = require('node:assert/strict');
const { longestStreak } = require('../src/streak');

test('no activity', () => {
  assert.equal(longestStreak([]), 0);
});

test('a single day', () => {
  assert.equal(longestStreak(['2024-03-01']), 1);
});

test('three days in a row', () => {
  assert.equal(longestStreak(['2024-03-01', '2024-03-02', '2024-03-03']), 3);
});
