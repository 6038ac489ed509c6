const test = require('node:test');
const assert = require('node:assert/strict');
const { paginate } = require('../src/paginate');

const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

test('an exact multiple fills every page', () => {
  const r = paginate(letters(10), 2, 5);
  assert.deepEqual(r, { page: 2, pages: 2, items: ['f', 'g', 'h', 'i', 'j'], hasNext: false });
});

test('a partial last page counts as a page', () => {
  const r = paginate(letters(11), 3, 5);
  assert.equal(r.pages, 3);
  assert.deepEqual(r.items, ['k']);
});

test('the first page says there is a next one', () => {
  assert.equal(paginate(letters(6), 1, 4).hasNext, true);
});
