const test = require('node:test');
const assert = require('node:assert/strict');
const { removeAt } = require('../src/todo');

test('an index past the end removes nothing', () => {
  assert.deepEqual(removeAt(['a', 'b'], 5), { list: ['a', 'b'], removed: undefined });
});

test('removes the middle entry', () => {
  assert.deepEqual(removeAt(['a', 'b', 'c'], 1), { list: ['a', 'c'], removed: 'b' });
});
