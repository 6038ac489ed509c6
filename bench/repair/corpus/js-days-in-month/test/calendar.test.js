const test = require('node:test');
const assert = require('node:assert/strict');
const { daysInMonth } = require('../src/calendar');

test('long and short months', () => {
  assert.equal(daysInMonth(2023, 1), 31);
  assert.equal(daysInMonth(2023, 4), 30);
});

test('February of a leap year', () => {
  assert.equal(daysInMonth(2024, 2), 29);
});
