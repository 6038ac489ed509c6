const test = require('node:test');
const assert = require('node:assert/strict');
const { daysInMonth } = require('../src/calendar');

test('February', () => {
  assert.equal(daysInMonth(1900, 2), 28);
  assert.equal(daysInMonth(2000, 2), 29);
  assert.equal(daysInMonth(2023, 2), 28);
  assert.equal(daysInMonth(1996, 2), 29);
  assert.equal(daysInMonth(2100, 2), 28);
});

test('other months and bad input', () => {
  assert.equal(daysInMonth(2024, 12), 31);
  assert.equal(daysInMonth(2024, 11), 30);
  assert.throws(() => daysInMonth(2024, 13), RangeError);
  assert.throws(() => daysInMonth(2024, 0), RangeError);
});
