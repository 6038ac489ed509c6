const test = require('node:test');
const assert = require('node:assert/strict');
const { removeAt } = require('../src/todo');

test('positions', () => {
  assert.deepEqual(removeAt(['a', 'b', 'c'], 0), { list: ['b', 'c'], removed: 'a' });
  assert.deepEqual(removeAt(['a', 'b', 'c'], 2), { list: ['a', 'b'], removed: 'c' });
  assert.deepEqual(removeAt(['a', 'b', 'c'], -1), { list: ['a', 'b'], removed: 'c' });
  assert.deepEqual(removeAt(['a', 'b', 'c'], -3), { list: ['b', 'c'], removed: 'a' });
  assert.deepEqual(removeAt(['a', 'b', 'c'], -4), { list: ['a', 'b', 'c'], removed: undefined });
  assert.deepEqual(removeAt([], 0), { list: [], removed: undefined });
});

test('the original is unchanged and bad indices throw', () => {
  const list = ['x', 'y'];
  removeAt(list, 0);
  assert.deepEqual(list, ['x', 'y']);
  assert.throws(() => removeAt(list, 0.5), TypeError);
});
