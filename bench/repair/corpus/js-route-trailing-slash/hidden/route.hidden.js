const test = require('node:test');
const assert = require('node:assert/strict');
const { normalizeRoute } = require('../src/route');

test('routes', () => {
  const cases = [
    ['users//42/', '/users/42'], ['///', '/'], ['  /a  ', '/a'], ['', '/'], ['/a/b/c', '/a/b/c'],
    ['A/B//', '/a/b'], ['/x', '/x'], ['//', '/'],
  ];
  for (const [input, route] of cases) assert.equal(normalizeRoute(input), route, JSON.stringify(input));
});
