const test = require('node:test');
const assert = require('node:assert/strict');
const { touchRecent } = require('../src/recent');

test('reopening moves a file to the front', () => {
  assert.deepEqual(touchRecent(['a', 'b', 'c'], 'c'), ['c', 'a', 'b']);
  assert.deepEqual(touchRecent(['a', 'b', 'c'], 'a'), ['a', 'b', 'c']);
});

test('the oldest entries fall off', () => {
  assert.deepEqual(touchRecent(['a', 'b', 'c', 'd', 'e'], 'f'), ['f', 'a', 'b', 'c', 'd']);
  assert.deepEqual(touchRecent(['a', 'b'], 'c', 1), ['c']);
  assert.deepEqual(touchRecent(['a', 'b', 'c'], 'x', 2), ['x', 'a']);
});

test('backslashes are normalised and the input is left alone', () => {
  const list = ['src/a.js', 'src/b.js'];
  assert.deepEqual(touchRecent(list, 'src\\b.js'), ['src/b.js', 'src/a.js']);
  assert.deepEqual(list, ['src/a.js', 'src/b.js']);
});
