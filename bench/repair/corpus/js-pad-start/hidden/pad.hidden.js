const test = require('node:test');
const assert = require('node:assert/strict');
const { padStart } = require('../src/pad');

test('padding', () => {
  assert.equal(padStart('x', 5, 'ab'), 'ababx');
  assert.equal(padStart('abc', 6), '   abc');
  assert.equal(padStart('long value', 3, '*'), 'long value');
  assert.equal(padStart(5, -2, '0'), '5');
  assert.equal(padStart('q', 4, ''), 'q');
  assert.equal(padStart(42, 5, '-='), '-=-42');
});
