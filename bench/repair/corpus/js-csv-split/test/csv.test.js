const test = require('node:test');
const assert = require('node:assert/strict');
const { splitCsvLine } = require('../src/csv');

test('an empty line is one empty field', () => {
  assert.deepEqual(splitCsvLine(''), ['']);
});

test('quoted fields', () => {
  assert.deepEqual(splitCsvLine('"a","b c"'), ['a', 'b c']);
});

test('plain fields', () => {
  assert.deepEqual(splitCsvLine('id,name'), ['id', 'name']);
});
