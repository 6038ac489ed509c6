const test = require('node:test');
const assert = require('node:assert/strict');
const { paginate } = require('../src/paginate');

const nums = (n) => Array.from({ length: n }, (_, i) => i);

test('page counts', () => {
  for (const [n, size, pages] of [[0, 3, 1], [1, 10, 1], [7, 3, 3], [9, 3, 3], [10, 3, 4], [100, 7, 15], [5, 1, 5]]) {
    assert.equal(paginate(nums(n), 1, size).pages, pages, `${n} items, ${size} per page`);
  }
});

test('pages are clamped and slices are right', () => {
  assert.deepEqual(paginate(nums(7), 9, 3), { page: 3, pages: 3, items: [6], hasNext: false });
  assert.deepEqual(paginate(nums(7), 0, 3), { page: 1, pages: 3, items: [0, 1, 2], hasNext: true });
  assert.deepEqual(paginate(nums(7), 2, 3).items, [3, 4, 5]);
  assert.deepEqual(paginate([], 1, 5), { page: 1, pages: 1, items: [], hasNext: false });
});

test('a bad page size is refused', () => {
  assert.throws(() => paginate(nums(3), 1, 0), RangeError);
  assert.throws(() => paginate(nums(3), 1, 1.5), RangeError);
});
