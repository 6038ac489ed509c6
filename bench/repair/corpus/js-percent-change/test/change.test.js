const test = require('node:test');
const assert = require('node:assert/strict');
const { percentChange } = require('../src/change');

test('from zero there is no percentage', () => {
  assert.equal(percentChange(0, 5), null);
});

test('no change', () => {
  assert.equal(percentChange(40, 40), 0);
});

test('a rise by half', () => {
  assert.equal(percentChange(50, 75), 50);
});
