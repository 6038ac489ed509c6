const test = require('node:test');
const assert = require('node:assert/strict');
const { cleanLines } = require('../src/lines');

test('cleaning', () => {
  assert.deepEqual(cleanLines('   \n\t\n'), []);
  assert.deepEqual(cleanLines('a  \r\n\r\nb\t\r\n  \r\n'), ['a', '', 'b']);
  assert.deepEqual(cleanLines('\n\nx'), ['', '', 'x']);
  assert.deepEqual(cleanLines('one'), ['one']);
});
