const test = require('node:test');
const assert = require('node:assert/strict');
const { longestStreak } = require('../src/streak');

test('streaks', () => {
  assert.equal(longestStreak(['2024-03-05', '2024-03-01', '2024-03-02', '2024-03-06', '2024-03-07']), 3);
  assert.equal(longestStreak(['2024-02-28', '2024-02-29', '2024-03-01', '2024-03-01']), 3);
  assert.equal(longestStreak(['2023-12-31', '2024-01-01']), 2);
  assert.equal(longestStreak(['2024-01-01', '2024-01-03', '2024-01-05']), 1);
});
