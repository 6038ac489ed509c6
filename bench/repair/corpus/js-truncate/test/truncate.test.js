const test = require('node:test');
const assert = require('node:assert/strict');
const { truncate } = require('../src/truncate');

test('short text is unchanged', () => {
  assert.equal(truncate('hello', 10), 'hello');
});

test('cuts at a space', () => {
  assert.equal(truncate('hello world again', 8), 'hello\u2026');
});

test('a single long word is cut to fit', () => {
  assert.equal(truncate('abcdefghij', 5), 'abcd\u2026');
});
