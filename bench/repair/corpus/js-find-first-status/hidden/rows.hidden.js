const test = require('node:test');
const assert = require('node:assert/strict');
const { findFirstWithStatus } = require('../src/rows');

test('scanning', () => {
  const rows = [{ status: 'open' }, null, { status: 'done' }, { status: 'open' }, { status: 'done' }];
  assert.equal(findFirstWithStatus(rows, 'open'), 0);
  assert.equal(findFirstWithStatus(rows, 'open', 1), 3);
  assert.equal(findFirstWithStatus(rows, 'done', -5), 2);
  assert.equal(findFirstWithStatus(rows, 'done', 3), 4);
  assert.equal(findFirstWithStatus(rows, 'done', 5), -1);
  assert.equal(findFirstWithStatus([], 'open'), -1);
});
