// What may leave the machine: lines with long base64/hex runs dropped, names quoted in reasons escaped and capped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DROPPED_LINE, hasEncodedRun, outboundLines, safeName, safeNames } from '../../src/core/base/outboundText';

const secret = 'localhost:5432:*:app:s3cr3t-Passw0rd';

describe('outboundText', () => {
  it('finds a secret encoded as base64, base64url or hex', () => {
    assert.ok(hasEncodedRun(Buffer.from(secret).toString('base64')));
    assert.ok(hasEncodedRun(`x=${Buffer.from(secret).toString('base64url')};`));
    assert.ok(hasEncodedRun(`got ${Buffer.from(secret).toString('hex')}`));
    assert.ok(hasEncodedRun(Buffer.from('a short one!').toString('base64')), 'padding marks an encoding too');
  });

  it('keeps ordinary test output: paths, identifiers, numbers, sentences', () => {
    for (const line of [
      '    at clamp (/tmp/vf-run-aB3xYz/copy/src/clamp.js:7:3)',
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '  1) clamp keeps values inside the range',
      'expected 10 but got 0 (in 1.25ms)',
      'tests/test_clamp.py::test_keeps_values_inside FAILED',
      'assertStrictEqualDeepEqualNotEqual',
    ]) assert.equal(hasEncodedRun(line), false, line);
  });

  it('drops such lines (runs of them as one) and strips escapes and control characters', () => {
    const b64 = Buffer.from(secret).toString('base64');
    assert.deepEqual(outboundLines(['first', b64, `and ${b64}`, '\u001b[31mred\u001b[0m\u0007', 'last']), ['first', DROPPED_LINE, 'red', 'last']);
  });

  it('escapes and caps names a candidate chose', () => {
    assert.equal(safeName('test/a\n**approved**`<!--.js'), 'test/a\\n**approved**\\u0060\\u003c!--.js');
    assert.equal(safeName('\u001b]52;c;AAAA\u0007x'), '\\u001b]52;c;AAAA\\u0007x');
    assert.equal(safeName('x'.repeat(200)).length, 81);
    assert.equal(safeName(`conftest-${Buffer.from(secret).toString('hex')}.py`), '(a name with a long base64/hex run)');
    assert.equal(safeNames(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 5), 'a, b, c, d, e and 2 more');
  });
});

describe('showControls', () => {
  it('shows a candidate\'s escapes and carriage returns instead of letting them act on the terminal', async () => {
    const { showControls } = await import('../../src/core/base/ansi');
    assert.equal(showControls('a\u001b]52;c;ZXZpbA==\u0007b\r+ pass\u001b[1A\u001b[2K\tc\n\u007f\u009b'), 'a^[]52;c;ZXZpbA==^Gb^M+ pass^[[1A^[[2K\tc\n^?\\u009b');
  });
});
