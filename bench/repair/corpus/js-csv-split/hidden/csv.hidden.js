const test = require('node:test');
const assert = require('node:assert/strict');
const { splitCsvLine } = require('../src/csv');

test('fields', () => {
  assert.deepEqual(splitCsvLine('a,,b,'), ['a', '', 'b', '']);
  assert.deepEqual(splitCsvLine('"x, y",z'), ['x, y', 'z']);
  assert.deepEqual(splitCsvLine('"say ""hi"\"",2'), ['say "hi"', '2']);
  assert.deepEqual(splitCsvLine('12,"",3.5'), ['12', '', '3.5']);
  assert.deepEqual(splitCsvLine('ab"c'), ['abc']);
});
