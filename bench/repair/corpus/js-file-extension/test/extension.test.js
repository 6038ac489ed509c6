const test = require('node:test');
const assert = require('node:assert/strict');
const { extensionOf } = require('../src/extension');

test('a plain extension', () => {
  assert.equal(extensionOf('docs/Report.PDF'), 'pdf');
});

test('a hidden file has none', () => {
  assert.equal(extensionOf('/home/me/.bashrc'), '');
});

test('only the last extension counts', () => {
  assert.equal(extensionOf('backup/site.tar.gz'), 'gz');
});
