const test = require('node:test');
const assert = require('node:assert/strict');
const { truncate } = require('../src/truncate');

test('the result always fits', () => {
  const texts = ['abcdefghij', 'one two three four', 'x y', 'hello, world', 'a bc def ghij klmno'];
  for (const t of texts) {
    for (let max = 1; max <= t.length + 1; max++) {
      const r = truncate(t, max);
      assert.ok(r.length <= max, `${JSON.stringify(t)} at ${max}: ${JSON.stringify(r)}`);
    }
  }
});

test('cuts', () => {
  assert.equal(truncate('hello, world', 8), 'hello\u2026');
  assert.equal(truncate('abc', 0), '');
  assert.equal(truncate('abc', 2), 'a\u2026');
  assert.equal(truncate('one two three', 9), 'one two\u2026');
});
