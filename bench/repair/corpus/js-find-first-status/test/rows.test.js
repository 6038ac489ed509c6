const test = require('node:test');
const assert = require('node:assert/strict');
const { findFirstWithStatus } = require('../src/rows');

test('no match', () => {
  assert.equal(findFirstWithStatus([{ status: 'open' }], 'closed'), -1);
});

test('a single match', () => {
  assert.equal(findFirstWithStatus([{ status: 'open' }, { status: 'closed' }], 'closed'), 1);
});

test('the first of two matches', () => {
  const rows = [{ status: 'new' }, { status: 'open' }, { status: 'open' }];
  assert.equal(findFirstWithStatus(rows, 'open'), 1);
});
