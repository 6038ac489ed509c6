const test = require('node:test');
const assert = require('node:assert/strict');
const { bucketAges } = require('../src/ages');

const buckets = [{ label: 'child', min: 0, max: 12 }, { label: 'teen', min: 13, max: 19 }, { label: 'adult', min: 20, max: 64 }];

test('edges are inclusive', () => {
  assert.deepEqual(bucketAges([0, 12, 13, 19, 20, 64, 65, -1], buckets), { child: 2, teen: 2, adult: 2, other: 2 });
});

test('the first matching bucket wins', () => {
  const overlapping = [{ label: 'a', min: 0, max: 10 }, { label: 'b', min: 5, max: 20 }];
  assert.deepEqual(bucketAges([7, 15, 30], overlapping), { a: 1, b: 1, other: 1 });
});
