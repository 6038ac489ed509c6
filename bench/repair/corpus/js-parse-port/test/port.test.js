const test = require('node:test');
const assert = require('node:assert/strict');
const { parsePort } = require('../src/port');

test('a numeric string', () => {
  assert.equal(parsePort('3000'), 3000);
});

test('an empty value means the default', () => {
  assert.equal(parsePort(''), 8080);
});

test('garbage is refused', () => {
  assert.throws(() => parsePort('http'), /invalid port/);
});
