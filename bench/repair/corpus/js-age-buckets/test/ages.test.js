const test = require('node:test');
const assert = require('node:assert/strict');
const { bucketAges } = require('../src/ages');

const buckets = [{ label: 'child', min: 0, max: 12 }, { label: 'teen', min: 13, max: 19 }, { label: 'adult', min: 20, max: 64 }];

test('no ages, all zero', () => {
  assert.deepEqual(bucketAges([], buckets), { child: 0, teen: 0, adult: 0, other: 0 });
});

test('ages land in their buckets', () => {
  assert.deepEqual(bucketAges([5, 15, 30, 70], buckets), { child: 1, teen: 1, adult: 1, other: 1 });
});
