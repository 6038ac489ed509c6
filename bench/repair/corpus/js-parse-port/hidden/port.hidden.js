const test = require('node:test');
const assert = require('node:assert/strict');
const { parsePort } = require('../src/port');

test('ports', () => {
  assert.equal(parsePort(undefined), 8080);
  assert.equal(parsePort(null, 9000), 9000);
  assert.equal(parsePort('   ', 1), 1);
  assert.equal(parsePort(' 443 '), 443);
  assert.equal(parsePort(65535), 65535);
  assert.throws(() => parsePort('0'), RangeError);
  assert.throws(() => parsePort('70000'), RangeError);
  assert.throws(() => parsePort('-1'), /invalid port/);
  assert.throws(() => parsePort('12ab'), /invalid port/);
});
