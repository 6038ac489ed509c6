const test = require('node:test');
const assert = require('node:assert/strict');
const { formatDuration } = require('../src/duration');

test('under a minute', () => {
  assert.equal(formatDuration(59), '0:00:59');
});

test('minutes and seconds', () => {
  assert.equal(formatDuration(125), '0:02:05');
});

test('hours', () => {
  assert.equal(formatDuration(3661), '1:01:01');
});
