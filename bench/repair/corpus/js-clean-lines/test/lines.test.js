const test = require('node:test');
const assert = require('node:assert/strict');
const { cleanLines } = require('../src/lines');

test('trailing blank lines go', () => {
  assert.deepEqual(cleanLines('a\nb\n\n'), ['a', 'b']);
});

test('empty text has no lines', () => {
  assert.deepEqual(cleanLines(''), []);
});
