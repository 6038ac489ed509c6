const test = require('node:test');
const assert = require('node:assert/strict');
const { normalizeRoute } = require('../src/route');

test('the root stays the root', () => {
  assert.equal(normalizeRoute('/'), '/');
});

test('a trailing slash goes', () => {
  assert.equal(normalizeRoute('/Users/'), '/users');
});

test('a missing leading slash is added', () => {
  assert.equal(normalizeRoute('about'), '/about');
});
