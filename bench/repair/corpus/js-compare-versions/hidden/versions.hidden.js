const test = require('node:test');
const assert = require('node:assert/strict');
const { compareVersions } = require('../src/versions');

test('ordering', () => {
  assert.equal(compareVersions('1.9', '1.10'), -1);
  assert.equal(compareVersions('2', '10'), -1);
  assert.equal(compareVersions('1.2.3', '1.2.3'), 0);
  assert.equal(compareVersions('1.2.3.1', '1.2.3'), 1);
  assert.equal(compareVersions('0.0.1', '0.1'), -1);
  const sorted = ['1.10', '1.2', '1.9.9', '0.9', '1.2.0.1'].sort(compareVersions);
  assert.deepEqual(sorted, ['0.9', '1.2', '1.2.0.1', '1.9.9', '1.10']);
});
