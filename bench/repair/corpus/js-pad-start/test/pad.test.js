const test = require('node:test');
const assert = require('node:assert/strict');
const { padStart } = require('../src/pad');

test('a value as wide as the width is unchanged', () => {
  assert.equal(padStart(1234, 4, '0'), '1234');
});

test('pads with zeros on the left', () => {
  assert.equal(padStart(7, 3, '0'), '007');
});
