const test = require('node:test');
const assert = require('node:assert/strict');
const { percentChange } = require('../src/change');

test('changes', () => {
  assert.equal(percentChange(200, 150), -25);
  assert.equal(percentChange(-10, -5), 50);
  assert.equal(percentChange(-10, 10), 200);
  assert.equal(percentChange(3, 4), 33.3);
  assert.equal(percentChange(0.5, 0.25), -50);
  assert.throws(() => percentChange('1', 2), TypeError);
});
