const test = require('node:test');
const assert = require('node:assert/strict');
const { progressPercent } = require('../src/progress');

test('percentages', () => {
  assert.equal(progressPercent(2, 3), 66.7);
  assert.equal(progressPercent(-5, 10), 0);
  assert.equal(progressPercent(10, 10), 100);
  assert.equal(progressPercent(0, 10), 0);
  assert.equal(progressPercent(3, 0), 100);
  assert.equal(progressPercent(1, 1000), 0.1);
  assert.throws(() => progressPercent(NaN, 1), TypeError);
});
