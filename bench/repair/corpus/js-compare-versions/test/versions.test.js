const test = require('node:test');
const assert = require('node:assert/strict');
const { compareVersions } = require('../src/versions');

test('missing parts count as zero', () => {
  assert.equal(compareVersions('1.0', '1'), 0);
});

test('parts compare as numbers', () => {
  assert.equal(compareVersions('1.10', '1.9'), 1);
});
