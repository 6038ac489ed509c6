const test = require('node:test');
const assert = require('node:assert/strict');
const { mergeIntervals } = require('../src/intervals');

test('disjoint intervals stay apart', () => {
  assert.deepEqual(mergeIntervals([{ start: 5, end: 6 }, { start: 1, end: 2 }]), [{ start: 1, end: 2 }, { start: 5, end: 6 }]);
});

test('overlapping intervals merge', () => {
  assert.deepEqual(mergeIntervals([{ start: 1, end: 3 }, { start: 2, end: 6 }]), [{ start: 1, end: 6 }]);
});
