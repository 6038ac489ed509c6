const test = require('node:test');
const assert = require('node:assert/strict');
const { touchRecent } = require('../src/recent');

test('the first file makes a list of one', () => {
  assert.deepEqual(touchRecent([], 'a.txt'), ['a.txt']);
});

test('an empty name changes nothing', () => {
  assert.deepEqual(touchRecent(['a.txt'], ''), ['a.txt']);
});

test('a new file goes first', () => {
  assert.deepEqual(touchRecent(['b.txt', 'a.txt'], 'c.txt'), ['c.txt', 'b.txt', 'a.txt']);
});
