const test = require('node:test');
const assert = require('node:assert/strict');
const { progressPercent } = require('../src/progress');

test('nothing to do', () => {
  assert.equal(progressPercent(0, 0), 0);
});

test('a third of the way', () => {
  assert.equal(progressPercent(1, 3), 33.3);
});

test('overshoot is clamped', () => {
  assert.equal(progressPercent(150, 100), 100);
});
