const assert = require('node:assert/strict');
const { test } = require('node:test');
const { applyDiscount, cheapest } = require('../src/pricing');

test('no discount below the threshold', () => {
  assert.equal(applyDiscount(10, 4, 5, 20), 40);
});

test('discount applies from the threshold on ("at least")', () => {
  assert.equal(applyDiscount(10, 5, 5, 20), 40);
  assert.equal(applyDiscount(10, 6, 5, 20), 48);
});

test('cheapest price', () => {
  assert.equal(cheapest([3, 1, 2]), 1);
});
