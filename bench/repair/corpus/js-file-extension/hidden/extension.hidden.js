const test = require('node:test');
const assert = require('node:assert/strict');
const { extensionOf } = require('../src/extension');

test('extensions', () => {
  const cases = [
    ['a.b.c', 'c'], ['noext', ''], ['trailing.', ''], ['/x.y/z', ''], ['/x.y/z.w.V', 'v'],
    ['C:\\Users\\me\\notes.v2.TXT', 'txt'], ['..weird.md', 'md'], ['.env.local', 'local'], ['dir/.gitignore', ''],
  ];
  for (const [path, ext] of cases) assert.equal(extensionOf(path), ext, path);
});
